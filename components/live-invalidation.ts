// Which react-query caches each journal event makes stale. A page adds a line for its kinds.
import type { QueryKey } from "@tanstack/react-query";

export interface Notice {
  id: number;
  kind: string;
  actor: string | null;
  taskId: string | null;
  runId: string | null;
  room: string | null;
}

/** Every event shows in the journal; the rest depends on the kind. */
export function staleQueries(notice: Notice): QueryKey[] {
  const keys: QueryKey[] = [["journal"]];
  switch (notice.kind) {
    case "MessageSent":
      if (notice.room) keys.push(["messages", notice.room]);
      // A message on a task's thread shows in the board's drawer.
      if (notice.taskId) keys.push(["tasks", "detail", notice.taskId]);
      // A sender is present, and focusing agents' digests grew.
      keys.push(["presence"]);
      break;
    case "GateRejected":
      if (notice.room) keys.push(["gates", notice.room]);
      keys.push(["presence"]);
      break;
    case "FocusWindowOpened":
    case "FocusWindowClosed":
    case "DigestFlushed":
      keys.push(["presence"]);
      break;
    case "PrincipalCreated":
    case "HumanSignedIn":
      keys.push(["principals"], ["presence"]);
      break;
    case "RoomCreated":
      keys.push(["rooms"]);
      break;
    case "TaskCreated":
    case "TaskClaimed":
    case "LeaseRenewed":
    case "OutputAppended":
    case "LeaseExpired":
    case "TaskOffered":
    case "TaskSubmitted":
    case "TaskReviewed":
    case "TaskReopened":
    case "TaskCancelled":
      keys.push(["tasks"]);
      break;
    case "DecisionOpened":
    case "BallotCast":
    case "DecisionClosed":
    case "DecisionEscalated":
    case "EscalationResolved":
    case "DefaultAdopted":
      keys.push(["decisions"]);
      break;
    case "CommitmentProposed":
    case "CommitmentConfirmed":
    case "CommitmentFulfilled":
    case "CommitmentWithdrawn":
    case "DependencyAdded":
    case "ReminderSent":
      keys.push(["commitments"]);
      break;
    case "LessonRecorded":
    case "PrinciplePromoted":
    case "PrinciplePinned":
    case "PrincipleUnpinned":
      keys.push(["memory"]);
      break;
  }
  return keys;
}

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

/** The bill folds these; spend, budgets and runs show on the Bill, the roster and agent pages. */
const BILL_KINDS = new Set(["BudgetDebited", "BudgetCreated", "BudgetAllowanceChanged", "BudgetExhausted", "RunStarted", "AgentFinished", "RunStopped"]);
/** These change an agent's lease, load, success rate, presence or gate record. */
const ROSTER_KINDS = new Set([...BILL_KINDS, "TaskClaimed", "LeaseExpired", "TaskSubmitted", "TaskReviewed", "TaskCancelled", "PrincipalCreated", "MessageSent", "GateRejected"]);

/** Every event shows in the journal; the rest depends on the kind. */
export function staleQueries(notice: Notice): QueryKey[] {
  const keys: QueryKey[] = [["journal"]];
  // The explorer's views of the event's run (timeline, diagnosis) and task (thread, audit).
  if (notice.runId) keys.push(["run", notice.runId]);
  if (notice.taskId) keys.push(["task-journal", notice.taskId]);
  if (BILL_KINDS.has(notice.kind)) keys.push(["bill"]);
  if (ROSTER_KINDS.has(notice.kind)) keys.push(["roster"], ["agent"]);
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
    case "ReservationGranted":
    case "ReservationRenewed":
    case "ReservationReleased":
    case "ReservationExpired":
    case "ReservationForceReleased":
      keys.push(["reservations"]);
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

// A Quorum task as an A2A Task: its state (./state.ts), a status message in words, its context, the submissions
// on record as artifacts, and Quorum's own handles in the metadata. Read through REST's GET /api/tasks/:id
// (getTaskDetail), so what A2A shows is what the board shows, to whoever may see it.
import { type Artifact, type Message, type Part, Role, type Task, TaskState } from "@a2a-js/sdk";
import type { Executor } from "../../db/client";
import { handedBackGoal, type HandedBackGoal } from "../../domain/flights/handed-back";
import type { Principal } from "../../domain/principal";
import { type EvidenceView, getTaskDetail, type TaskDetail } from "../../domain/tasks/get";
import { taskContext } from "../../domain/tasks/list";
import { a2aStateOf } from "./state";

export const textPart = (text: string, mediaType = "text/plain"): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType });

/** A message from Quorum about the task. */
export function agentMessage(task: { id: string; contextId: string }, text: string, messageId: string): Message {
  return { messageId, contextId: task.contextId, taskId: task.id, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The status in words: who has it, who must act, or why it ended. */
function statusText(detail: TaskDetail, state: TaskState, handedBack: HandedBackGoal | null): string {
  const { task } = detail;
  const name = `#${task.number}`;
  switch (state) {
    case TaskState.TASK_STATE_FAILED:
      return `${name} came back to ${task.approverName}: ${handedBack?.reason ?? "the team could not carry it"}`;
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return `${name} waits for ${task.approverName}'s review of ${task.ownerName ?? "its owner"}'s submission`;
    case TaskState.TASK_STATE_COMPLETED: {
      const accepted = detail.reviews.findLast((r) => r.verdict === "accept");
      return `${name} was accepted${accepted ? ` by ${accepted.reviewerName}` : ""}`;
    }
    case TaskState.TASK_STATE_CANCELED:
      return `${name} was cancelled${detail.adr ? `: ${detail.adr.title}` : ""}`;
    default:
      if (task.status === "in_progress") return `${name} is in progress with ${task.ownerName}`;
      return task.acceptanceCriteria === null
        ? `${name} is on the board without acceptance criteria: nobody can claim it until it has some`
        : `${name} is on the board, ready for an agent to claim`;
  }
}

/** Each submission on record: the summary and the evidence its owner sent for review. */
function artifactOf(evidence: EvidenceView): Artifact {
  return {
    artifactId: `submission-${evidence.id}`,
    name: `Submission by ${evidence.authorName}`,
    description: evidence.summary ?? "",
    parts: [...(evidence.summary ? [textPart(evidence.summary)] : []), textPart(evidence.evidence)],
    metadata: { quorum: { createdAt: evidence.createdAt, fence: evidence.fence } },
    extensions: [],
  };
}

export interface A2ATaskOptions {
  /** The hub's address, for the task's page on the board (left out without it). */
  hubUrl?: string;
  includeArtifacts?: boolean;
}

/** The A2A view of a task the caller may see (404 otherwise, as REST says). */
export async function readA2ATask(db: Executor, caller: Principal, taskId: string, options: A2ATaskOptions): Promise<Task> {
  const detail = await getTaskDetail(db, caller, taskId);
  const handedBack = await handedBackGoal(db, taskId);
  return a2aTaskOf(detail, handedBack, options);
}

export function a2aTaskOf(detail: TaskDetail, handedBack: HandedBackGoal | null, options: A2ATaskOptions): Task {
  const { task } = detail;
  const state = a2aStateOf({ status: task.status, handedBack: handedBack !== null });
  const ids = { id: task.id, contextId: taskContext(task) };
  const when = handedBack ? handedBack.since.toISOString() : task.updatedAt;
  return {
    ...ids,
    status: { state, message: agentMessage(ids, statusText(detail, state, handedBack), `status-${task.id}-${when}`), timestamp: when },
    artifacts: options.includeArtifacts === false ? [] : detail.evidence.filter((e) => e.kind === "submission").map(artifactOf),
    history: [],
    metadata: {
      quorum: {
        number: task.number,
        title: task.title,
        status: task.status,
        approverName: task.approverName,
        ownerName: task.ownerName,
        ...(options.hubUrl ? { page: new URL(`/board/${task.number}`, options.hubUrl).toString() } : {}),
      },
    },
  };
}

// How a Quorum task reads as an A2A task state (DESIGN §19), both ways: the one place the map lives.
//   ready, in_progress → WORKING
//   review → INPUT_REQUIRED: it waits for its approver's verdict (a review left silent is escalated to the room, still in review)
//   done → COMPLETED                    cancelled → CANCELED
//   a flight's goal handed back to its human (domain/flights/handed-back.ts) → FAILED, with the reason
import { TaskState } from "@a2a-js/sdk";
import type { TaskStatus } from "../../domain/tasks/view";

/** What decides a task's A2A state: its status on the board, and whether it is a goal the team handed back. */
export interface StateFacts {
  status: TaskStatus;
  handedBack: boolean;
}

export function a2aStateOf({ status, handedBack }: StateFacts): TaskState {
  if (handedBack) return TaskState.TASK_STATE_FAILED;
  switch (status) {
    case "ready":
    case "in_progress":
      return TaskState.TASK_STATE_WORKING;
    case "review":
      return TaskState.TASK_STATE_INPUT_REQUIRED;
    case "done":
      return TaskState.TASK_STATE_COMPLETED;
    case "cancelled":
      return TaskState.TASK_STATE_CANCELED;
  }
}

/** A state after which nothing more will happen to the task (a handed-back goal may still be retried by its human). */
export function isTerminal(state: TaskState): boolean {
  return state === TaskState.TASK_STATE_COMPLETED || state === TaskState.TASK_STATE_CANCELED || state === TaskState.TASK_STATE_FAILED;
}

/** A state a blocking send returns at (A2A: terminal or interrupted). */
export function isSettled(state: TaskState): boolean {
  return isTerminal(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

/**
 * The board statuses a state can come from, for filtering a list (ListTasks' `status`); the handed-back test then
 * tells WORKING from FAILED among ready tasks. A state Quorum never reports (SUBMITTED, REJECTED, AUTH_REQUIRED) has none.
 */
export function statusesOf(state: TaskState): TaskStatus[] {
  switch (state) {
    case TaskState.TASK_STATE_WORKING:
      return ["ready", "in_progress"];
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return ["review"];
    case TaskState.TASK_STATE_COMPLETED:
      return ["done"];
    case TaskState.TASK_STATE_CANCELED:
      return ["cancelled"];
    case TaskState.TASK_STATE_FAILED:
      return ["ready"];
    default:
      return [];
  }
}

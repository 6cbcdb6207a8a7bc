// MCP tools of the task board: file, list, claim with a lease and fence, heartbeat, output, submit, review.
import { appendOutput, appendOutputInput } from "../../../domain/tasks/append-output";
import { cancelTask, cancelTaskInput } from "../../../domain/tasks/cancel";
import { editTask, editTaskInput } from "../../../domain/tasks/edit";
import { taskIdOf } from "../../../domain/tasks/ref";
import { claimTask, claimTaskInput } from "../../../domain/tasks/claim";
import { claimNextTask, claimNextTaskInput } from "../../../domain/tasks/claim-next";
import { createTask, createTaskInput } from "../../../domain/tasks/create";
import { getTaskDetail } from "../../../domain/tasks/get";
import { heartbeat, heartbeatInput } from "../../../domain/tasks/heartbeat";
import { listTasks, listTasksQuery } from "../../../domain/tasks/list";
import { listOutput, listOutputQuery } from "../../../domain/tasks/list-output";
import { reopenTask, reopenTaskInput } from "../../../domain/tasks/reopen";
import { reviewTask, reviewTaskInput } from "../../../domain/tasks/review";
import { submitTask, submitTaskInput } from "../../../domain/tasks/submit";
import { claimOut, outputItemOut, page, taskDetailOut, taskOut } from "../outputs";
import { defineTool, DESTRUCTIVE, IDEMPOTENT, READ, WRITE } from "../tool";
import { taskParam } from "./params";

export const taskTools = [
  defineTool({
    name: "create_task",
    description: "File a task. Work starts only once it has acceptanceCriteria; the approver (default you) reviews it.",
    rest: "POST /api/tasks",
    input: createTaskInput,
    output: taskOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => createTask(db, caller, input, clock),
  }),
  defineTool({
    name: "list_tasks",
    description: "Tasks, newest first; status is one or more of ready,in_progress,review,done,cancelled (comma-separated).",
    rest: "GET /api/tasks",
    input: listTasksQuery,
    output: page(taskOut),
    annotations: READ,
    run: ({ db }, _, query) => listTasks(db, query),
  }),
  defineTool({
    name: "get_task",
    description: "One task with its evidence, reviews, ADR, latest output and thread.",
    rest: "GET /api/tasks/:id",
    params: taskParam,
    output: taskDetailOut,
    annotations: READ,
    run: async ({ db, caller }, { taskId }) => getTaskDetail(db, caller, await taskIdOf(db, taskId)),
  }),
  defineTool({
    name: "claim_next_task",
    description: "Claim the best ready task for you (task is null when none). Keep its fence: every later write carries it.",
    rest: "POST /api/tasks/claim-next",
    input: claimNextTaskInput,
    output: claimOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }) => ({ task: await claimNextTask(db, caller, clock) }),
  }),
  defineTool({
    name: "claim_task",
    description: "Claim one ready task by id; sets your lease and a new fence.",
    rest: "POST /api/tasks/:id/claim",
    params: taskParam,
    input: claimTaskInput,
    output: taskOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }, { taskId }) => claimTask(db, caller, await taskIdOf(db, taskId), clock),
  }),
  defineTool({
    name: "heartbeat",
    description: "Renew your lease on a task. A stale fence is refused (stale_fence): stop, you lost the task.",
    rest: "POST /api/tasks/:id/heartbeat",
    params: taskParam,
    input: heartbeatInput,
    output: taskOut,
    annotations: IDEMPOTENT,
    run: async ({ db, caller, clock }, { taskId }, input) => heartbeat(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
  defineTool({
    name: "append_output",
    description:
      "Append output items (any JSON) as you produce them, so a successor can resume. Give `from` (where your first item goes) and a write sent again after no answer is not stored twice (output_conflict if that place holds other items).",
    rest: "POST /api/tasks/:id/output",
    params: taskParam,
    input: appendOutputInput,
    output: taskOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }, { taskId }, input) => appendOutput(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
  defineTool({
    name: "read_output",
    description: "A task's output items in order, after a seq.",
    rest: "GET /api/tasks/:id/output",
    params: taskParam,
    input: listOutputQuery,
    output: page(outputItemOut),
    annotations: READ,
    run: async ({ db }, { taskId }, query) => listOutput(db, await taskIdOf(db, taskId), query),
  }),
  defineTool({
    name: "submit_task",
    description: "Hand your task to review with a summary and evidence (test output, a diff).",
    rest: "POST /api/tasks/:id/submit",
    params: taskParam,
    input: submitTaskInput,
    output: taskOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }, { taskId }, input) => submitTask(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
  defineTool({
    name: "review_task",
    description: "As the approver: accept (done) or reject with a reason (back to the owner).",
    rest: "POST /api/tasks/:id/review",
    params: taskParam,
    input: reviewTaskInput,
    output: taskOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }, { taskId }, input) => reviewTask(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
  defineTool({
    name: "reopen_task",
    description: "Reopen a done task with new evidence.",
    rest: "POST /api/tasks/:id/reopen",
    params: taskParam,
    input: reopenTaskInput,
    output: taskOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }, { taskId }, input) => reopenTask(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
  defineTool({
    name: "edit_task",
    description: "Fix a ready task you filed: its title, description, acceptance criteria or approver (once claimed it cannot change).",
    rest: "PATCH /api/tasks/:id",
    params: taskParam,
    input: editTaskInput,
    output: taskOut,
    annotations: WRITE,
    run: async ({ db, caller, clock }, { taskId }, input) => editTask(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
  defineTool({
    name: "cancel_task",
    description: "Cancel a task with an ADR (title, context, decision, consequences).",
    rest: "POST /api/tasks/:id/cancel",
    params: taskParam,
    input: cancelTaskInput,
    output: taskOut,
    annotations: DESTRUCTIVE,
    run: async ({ db, caller, clock }, { taskId }, input) => cancelTask(db, caller, await taskIdOf(db, taskId), input, clock),
  }),
];

// The board: filing, claiming with a lease and a fence, heartbeat, output, submit, review, reopen, cancel.
import { getTaskDetail } from "@/domain/tasks/get";
import { readTaskDiff } from "@/domain/flights/task-diff";
import { z } from "zod";
import { cancelTask, cancelTaskInput } from "@/domain/tasks/cancel";
import { editTask, editTaskInput } from "@/domain/tasks/edit";
import { taskIdOf, taskRef } from "@/domain/tasks/ref";
import { claimTask, claimTaskInput } from "@/domain/tasks/claim";
import { claimNextTask, claimNextTaskInput } from "@/domain/tasks/claim-next";
import { createTask, createTaskInput } from "@/domain/tasks/create";
import { heartbeat, heartbeatInput } from "@/domain/tasks/heartbeat";
import { listTasks, listTasksQuery } from "@/domain/tasks/list";
import { appendOutput, appendOutputInput } from "@/domain/tasks/append-output";
import { listOutput, listOutputQuery } from "@/domain/tasks/list-output";
import { reopenTask, reopenTaskInput } from "@/domain/tasks/reopen";
import { reviewTask, reviewTaskInput } from "@/domain/tasks/review";
import { submitTask, submitTaskInput } from "@/domain/tasks/submit";
import { cycleError } from "../errors";
import { staleFenceError, outputConflictError } from "../errors";
import * as v from "../views";
import { ok, created, noContent, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { DESTRUCTIVE, IDEMPOTENT, READ, WRITE } from "@/surfaces/mcp/tool";
import { firstLine, type SkillMessage, TASK_STATES } from "@/surfaces/a2a/skill";
import { fail } from "@/domain/errors";
import { isUuid } from "@/domain/ids";

/** A task route names its task by id or by number ("12", "#12"). */
const taskParams = z.strictObject({ id: taskRef });

/** A task title's length (domain/tasks/create.ts): a longer first line is cut, and the description keeps it whole. */
const TITLE_MAX = 200;

/** A message as POST /api/tasks's body: its first line the title, the text the description, its contextId the parent. */
function taskFromMessage({ text, fields, contextId }: SkillMessage): Record<string, unknown> {
  if (contextId && !isUuid(contextId)) throw fail.invalid("request", "contextId names a task of Quorum's (a uuid a task or its context came back with)");
  if (contextId && fields.parentId !== undefined && fields.parentId !== contextId) {
    throw fail.invalid("request", "the data part's parentId and the message's contextId name different tasks");
  }
  const title = fields.title ?? firstLine(text, TITLE_MAX);
  if (!title) throw fail.invalid("request", "the message has no text to make a task of");
  return {
    ...fields,
    title,
    ...(fields.description === undefined && text !== title ? { description: text } : {}),
    ...(contextId ? { parentId: contextId } : {}),
  };
}

export const TASK_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/tasks",
    tag: TAGS.tasks,
    summary: "The board, newest first",
    access: "principal",
    query: listTasksQuery,
    answers: ok(v.page(v.task)),
    refusals: [],
    tool: {
      name: "list_tasks",
      description: "Tasks, newest first; status is one or more of ready,in_progress,review,done,cancelled (comma-separated).",
      hints: READ,
      output: out.page(out.taskOut),
    },
    run: async ({ ctx, query }) => await listTasks(ctx.db, query),
  }),
  endpoint({
    method: "post",
    path: "/api/tasks",
    tag: TAGS.tasks,
    summary: "File a task; work starts once it has acceptance criteria",
    access: "principal",
    body: createTaskInput,
    answers: created(v.task),
    refusals: [403, 404, 409],
    conflicts: [cycleError],
    tool: {
      name: "create_task",
      description: "File a task. Work starts only once it has acceptanceCriteria; the approver (default you) reviews it.",
      hints: WRITE,
      output: out.taskOut,
    },
    skill: {
      id: "board",
      name: "A task on Quorum's board",
      description:
        "The default. Your message becomes a task on the board, where an agent claims it under a lease and its approver reviews what it submits. " +
        "The text is the task: its first line the title, the whole text its description. A data part may carry the task's other fields as Quorum's REST API " +
        "names them (POST /api/tasks): acceptanceCriteria (without them nobody can claim it), approverId (who reviews it: you unless you name someone; name " +
        "a human to have a person decide), dependsOn, leaseMinutes. A contextId files it under that task. The submissions on record come back as artifacts. " +
        TASK_STATES,
      tags: ["tasks", "board", "review", "human-in-the-loop"],
      examples: ['Port the date parser to Temporal — with a data part {"acceptanceCriteria": "the date tests pass", "approverId": "<a human\'s id>"}'],
      isDefault: true,
      noun: "task",
      body: taskFromMessage,
      task: (task: { id: string }) => task.id,
    },
    run: async ({ ctx, caller, body }) => await createTask(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/claim-next",
    tag: TAGS.tasks,
    summary: "Claim the best ready task for you: 200 with it, or 204 when none is ready",
    access: "principal",
    body: claimNextTaskInput,
    answers: [...ok(v.task, "Claimed: keep its `fence`, every later write carries it"), noContent("Nothing is ready for you")],
    refusals: [403],
    tool: {
      name: "claim_next_task",
      description: "Claim the best ready task for you (task is null when none). Keep its fence: every later write carries it.",
      hints: WRITE,
      output: out.claimOut,
      result: (task) => ({ task }),
    },
    // Null when nothing is ready: the declared 204.
    run: async ({ ctx, caller }) => await claimNextTask(ctx.db, caller, ctx.clock),
  }),
  endpoint({
    method: "get",
    path: "/api/tasks/{id}",
    tag: TAGS.tasks,
    summary: "One task with its evidence, reviews, ADR, latest output and thread",
    access: "principal",
    params: taskParams,
    answers: ok(v.taskDetail),
    refusals: [404],
    tool: {
      name: "get_task",
      description: "One task with its evidence, reviews, ADR, latest output and thread.",
      hints: READ,
      output: out.taskDetailOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await getTaskDetail(ctx.db, caller, id);
    },
  }),
  endpoint({
    method: "patch",
    path: "/api/tasks/{id}",
    tag: TAGS.tasks,
    summary: "Fix a ready task: its title, description, acceptance criteria or approver (its creator, or a human)",
    access: "principal",
    params: taskParams,
    body: editTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "edit_task",
      description: "Fix a ready task you filed: its title, description, acceptance criteria or approver (once claimed it cannot change).",
      hints: WRITE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await editTask(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/tasks/{id}/diff",
    tag: TAGS.tasks,
    summary: "What the task changed, for its review: a coder's branch against main (its merge once integrated), or a goal's combined merges — files with +/− counts and hunks",
    access: "principal",
    params: taskParams,
    answers: ok(v.taskDiff),
    refusals: [404],
    run: async ({ ctx, params }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await readTaskDiff(ctx.db, id);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/claim",
    tag: TAGS.tasks,
    summary: "Claim a ready task: you own it, with a lease and `fence + 1`",
    access: "principal",
    params: taskParams,
    body: claimTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "no_acceptance_criteria", "waiting_on_dependencies"],
    tool: {
      name: "claim_task",
      description: "Claim one ready task by id; sets your lease and a new fence.",
      hints: WRITE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await claimTask(ctx.db, caller, id, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/heartbeat",
    tag: TAGS.tasks,
    summary: "Renew your lease; a stale fence is refused (you lost the task)",
    access: "principal",
    params: taskParams,
    body: heartbeatInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "heartbeat",
      description: "Renew your lease on a task. A stale fence is refused (stale_fence): stop, you lost the task.",
      hints: IDEMPOTENT,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await heartbeat(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/tasks/{id}/output",
    tag: TAGS.tasks,
    summary: "The output items written so far, in order (where a replacement resumes)",
    access: "principal",
    params: taskParams,
    query: listOutputQuery,
    answers: ok(v.page(v.outputItem)),
    refusals: [404],
    tool: {
      name: "read_output",
      description: "A task's output items in order, after a seq.",
      hints: READ,
      output: out.page(out.outputItemOut),
      args: { id: "taskId" },
    },
    run: async ({ ctx, params, query }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await listOutput(ctx.db, id, query);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/output",
    tag: TAGS.tasks,
    summary: "Append output items (any JSON), so a successor can resume; with `from`, a repeated write is not stored twice",
    access: "principal",
    params: taskParams,
    body: appendOutputInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError, outputConflictError],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "append_output",
      description:
        "Append output items (any JSON) as you produce them, so a successor can resume. Give `from` (where your first item goes) and a write sent again after no answer is not stored twice (output_conflict if that place holds other items).",
      hints: WRITE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await appendOutput(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/submit",
    tag: TAGS.tasks,
    summary: "Submit for review with a summary and evidence",
    access: "principal",
    params: taskParams,
    body: submitTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "submit_task",
      description: "Hand your task to review with a summary and evidence (test output, a diff).",
      hints: WRITE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await submitTask(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/review",
    tag: TAGS.tasks,
    summary: "Accept or reject a submission (the approver, never the owner)",
    description:
      "An ACCEPT passes the tests' gate: when the submission carried per-test results, every target test passes and nothing is newly broken against the flight's baseline; " +
      "a task that names target tests needs such results. Refused with 409 `tests_refuse`, naming the tests; a human may accept over it with `overrule` (a reason, journalled).",
    access: "principal",
    params: taskParams,
    body: reviewTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "tests_refuse"],
    tool: {
      name: "review_task",
      description: "As the approver: accept (done) or reject with a reason (back to the owner). An accept the tests refuse is a 409 naming them: reject with those words.",
      hints: WRITE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await reviewTask(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/reopen",
    tag: TAGS.tasks,
    summary: "Reopen a done task on new evidence",
    access: "principal",
    params: taskParams,
    body: reopenTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "duplicate", "archived"],
    tool: {
      name: "reopen_task",
      description: "Reopen a done task with new evidence.",
      hints: WRITE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await reopenTask(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/cancel",
    tag: TAGS.tasks,
    summary: "Cancel a task, with an ADR",
    access: "principal",
    params: taskParams,
    body: cancelTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "cancel_task",
      description: "Cancel a task with an ADR (title, context, decision, consequences).",
      hints: DESTRUCTIVE,
      output: out.taskOut,
      args: { id: "taskId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const id = await taskIdOf(ctx.db, params.id);
      return await cancelTask(ctx.db, caller, id, body, ctx.clock);
    },
  }),
];

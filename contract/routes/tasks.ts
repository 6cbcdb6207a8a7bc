// The board: filing, claiming with a lease and a fence, heartbeat, output, submit, review, reopen, cancel.
import { z } from "zod";
import { cancelTaskInput } from "@/server/tasks/cancel";
import { editTaskInput } from "@/server/tasks/edit";
import { taskRef } from "@/server/tasks/ref";
import { claimTaskInput } from "@/server/tasks/claim";
import { claimNextTaskInput } from "@/server/tasks/claim-next";
import { createTaskInput } from "@/server/tasks/create";
import { heartbeatInput } from "@/server/tasks/heartbeat";
import { listTasksQuery } from "@/server/tasks/list";
import { appendOutputInput } from "@/server/tasks/append-output";
import { listOutputQuery } from "@/server/tasks/list-output";
import { reopenTaskInput } from "@/server/tasks/reopen";
import { reviewTaskInput } from "@/server/tasks/review";
import { submitTaskInput } from "@/server/tasks/submit";
import { cycleError } from "../errors";
import { staleFenceError, outputConflictError } from "../errors";
import * as v from "../views";
import { ok, created, noContent, type RouteSpec, TAGS } from "./route-spec";

/** A task route names its task by id or by number ("12", "#12"). */
const taskParams = z.strictObject({ id: taskRef });

export const TASK_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/tasks",
    tag: TAGS.tasks,
    summary: "The board, newest first",
    access: "principal",
    query: listTasksQuery,
    answers: ok(v.page(v.task)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/tasks",
    tag: TAGS.tasks,
    summary: "File a task; work starts once it has acceptance criteria",
    access: "principal",
    body: createTaskInput,
    answers: created(v.task),
    refusals: [403, 404, 409],
    conflicts: [cycleError],
  },
  {
    method: "post",
    path: "/api/tasks/claim-next",
    tag: TAGS.tasks,
    summary: "Claim the best ready task for you: 200 with it, or 204 when none is ready",
    access: "principal",
    body: claimNextTaskInput,
    answers: [...ok(v.task, "Claimed: keep its `fence`, every later write carries it"), noContent("Nothing is ready for you")],
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/tasks/{id}",
    tag: TAGS.tasks,
    summary: "One task with its evidence, reviews, ADR, latest output and thread",
    access: "principal",
    params: taskParams,
    answers: ok(v.taskDetail),
    refusals: [404],
  },
  {
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
  },
  {
    method: "get",
    path: "/api/tasks/{id}/diff",
    tag: TAGS.tasks,
    summary: "What the task changed, for its review: a coder's branch against main (its merge once integrated), or a goal's combined merges — files with +/− counts and hunks",
    access: "principal",
    params: taskParams,
    answers: ok(v.taskDiff),
    refusals: [404],
  },
  {
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
  },
  {
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
  },
  {
    method: "get",
    path: "/api/tasks/{id}/output",
    tag: TAGS.tasks,
    summary: "The output items written so far, in order (where a replacement resumes)",
    access: "principal",
    params: taskParams,
    query: listOutputQuery,
    answers: ok(v.page(v.outputItem)),
    refusals: [404],
  },
  {
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
  },
  {
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
  },
  {
    method: "post",
    path: "/api/tasks/{id}/review",
    tag: TAGS.tasks,
    summary: "Accept or reject a submission (the approver, never the owner)",
    access: "principal",
    params: taskParams,
    body: reviewTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
  },
  {
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
  },
  {
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
  },
];

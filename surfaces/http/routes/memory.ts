// Memory: lessons from worked tasks, and the principles promoted (or pinned) from them.
import { listLessons, listLessonsQuery, listPrinciples } from "@/domain/memory/list-memory";
import { pinExistingPrinciple, pinExistingPrincipleInput, pinPrinciple, pinPrincipleInput } from "@/domain/memory/pin-principle";
import { recordLesson, recordLessonInput } from "@/domain/memory/record-lesson";
import { unpinPrinciple, unpinPrincipleInput } from "@/domain/memory/unpin-principle";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { READ, WRITE } from "@/surfaces/mcp/tool";

export const MEMORY_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/lessons",
    tag: TAGS.memory,
    summary: "Lessons",
    access: "principal",
    query: listLessonsQuery,
    answers: ok(v.page(v.lesson)),
    refusals: [],
    tool: {
      name: "list_lessons",
      description: "Lessons learned from finished work, newest first.",
      hints: READ,
      output: out.page(out.lessonOut),
    },
    run: async ({ ctx, query }) => await listLessons(ctx.db, query),
  }),
  endpoint({
    method: "post",
    path: "/api/lessons",
    tag: TAGS.memory,
    summary: "Record a lesson (`taskId`: a task you owned or reviewed)",
    access: "principal",
    body: recordLessonInput,
    answers: created(v.anyObject, "Recorded, with the principle it promoted if any"),
    refusals: [403, 404, 409],
    otherConflicts: ["duplicate"],
    tool: {
      name: "record_lesson",
      description: "Record a lesson from finished work; two independent sources promote it to a principle.",
      hints: WRITE,
      output: out.lessonOut,
    },
    run: async ({ ctx, caller, body }) => await recordLesson(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "get",
    path: "/api/principles",
    tag: TAGS.memory,
    summary: "Principles in force and pinned",
    access: "principal",
    answers: ok(v.page(v.principle)),
    refusals: [],
    tool: {
      name: "list_principles",
      description: "Principles in force (promoted or pinned by a human).",
      hints: READ,
      output: out.page(out.principleOut),
    },
    run: async ({ ctx }) => await listPrinciples(ctx.db),
  }),
  endpoint({
    method: "post",
    path: "/api/principles",
    tag: TAGS.memory,
    summary: "Pin a lesson or your own words as a principle (humans)",
    access: "principal",
    body: pinPrincipleInput,
    answers: created(v.principle),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    run: async ({ ctx, caller, body }) => await pinPrinciple(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/principles/{id}/pin",
    tag: TAGS.memory,
    summary: "Pin a promoted principle (humans)",
    access: "principal",
    params: uuidId,
    body: pinExistingPrincipleInput,
    answers: ok(v.principle),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    run: ({ ctx, caller, params }) => pinExistingPrinciple(ctx.db, caller, params.id, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/principles/{id}/unpin",
    tag: TAGS.memory,
    summary: "Unpin a principle (humans)",
    access: "principal",
    params: uuidId,
    body: unpinPrincipleInput,
    answers: ok(v.principle),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    run: ({ ctx, caller, params }) => unpinPrinciple(ctx.db, caller, params.id, ctx.clock),
  }),
];

// Memory: lessons from worked tasks, and the principles promoted (or pinned) from them.
import { listLessonsQuery } from "@/server/memory/list-memory";
import { pinExistingPrincipleInput, pinPrincipleInput } from "@/server/memory/pin-principle";
import { recordLessonInput } from "@/server/memory/record-lesson";
import { unpinPrincipleInput } from "@/server/memory/unpin-principle";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS } from "./route-spec";

export const MEMORY_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/lessons",
    tag: TAGS.memory,
    summary: "Lessons",
    access: "principal",
    query: listLessonsQuery,
    answers: ok(v.page(v.lesson)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/lessons",
    tag: TAGS.memory,
    summary: "Record a lesson (`taskId`: a task you owned or reviewed)",
    access: "principal",
    body: recordLessonInput,
    answers: created(v.anyObject, "Recorded, with the principle it promoted if any"),
    refusals: [403, 404, 409],
    otherConflicts: ["duplicate"],
  },
  {
    method: "get",
    path: "/api/principles",
    tag: TAGS.memory,
    summary: "Principles in force and pinned",
    access: "principal",
    answers: ok(v.page(v.principle)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/principles",
    tag: TAGS.memory,
    summary: "Pin a lesson or your own words as a principle (humans)",
    access: "principal",
    body: pinPrincipleInput,
    answers: created(v.principle),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
  },
  ...(["pin", "unpin"] as const).map(
    (step): RouteSpec => ({
      method: "post",
      path: `/api/principles/{id}/${step}`,
      tag: TAGS.memory,
      summary: step === "pin" ? "Pin a promoted principle (humans)" : "Unpin a principle (humans)",
      access: "principal",
      params: uuidId,
      body: step === "pin" ? pinExistingPrincipleInput : unpinPrincipleInput,
      answers: ok(v.principle),
      refusals: [403, 404, 409],
      otherConflicts: ["wrong_status"],
    }),
  ),
];

// The team's memory: lessons recorded after work, and the principles promoted from them.
import { z } from "zod";
import type { LessonView, PrincipleView } from "@/domain/memory/memory-view";
import { open, uuid, when, int } from "./base";

export const lesson = open({
  id: uuid,
  number: int,
  text: z.string(),
  sourceId: uuid,
  sourceName: z.string(),
  taskId: uuid.nullable(),
  createdAt: when,
}) satisfies z.ZodType<Pick<LessonView, "id" | "number" | "text" | "sourceId" | "taskId" | "createdAt">>;
export const principle = open({
  id: uuid,
  text: z.string(),
  active: z.boolean(),
  promotedAt: when.nullable(),
  pinnedAt: when.nullable(),
  sources: z.array(lesson),
}) satisfies z.ZodType<Pick<PrincipleView, "id" | "text" | "active" | "promotedAt" | "pinnedAt">>;

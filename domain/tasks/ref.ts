// How a route names a task: its id, or its number as people say it ("12" or "#12", `%2312` in a URL).
import { eq } from "drizzle-orm";
import { z } from "zod";
import { tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";

const NUMBER = /^#?(\d{1,9})$/;

/** The path parameter of the task routes, as the API reference describes it. */
export const taskRef = z.union([z.uuid(), z.string().regex(NUMBER, "a task's id, or its number (12 or #12)")]);

/** The task's id for `ref`; a number nobody has is 404, as an unknown id is. */
export async function taskIdOf(db: Executor, ref: string): Promise<string> {
  const number = NUMBER.exec(ref)?.[1];
  if (number === undefined) return ref;
  const [row] = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(eq(tasks.number, Number(number)));
  if (!row) throw fail.notFound("task", `no task #${number}`);
  return row.id;
}

// Validates a route's path parameters with zod: a malformed id is a 400 with issues, never a 500.
import type { z } from "zod";
import { fail } from "@/server/errors";

export async function readParams<S extends z.ZodType>(params: Promise<unknown>, schema: S): Promise<z.infer<S>> {
  const parsed = schema.safeParse(await params);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    throw fail.invalid("request", `invalid path: ${issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`, { issues });
  }
  return parsed.data;
}

// Text and JSON inputs that Postgres can store: a NUL character would fail the insert (a 500), so it is a 400.
import { z } from "zod";

const NUL = "\u0000";

/** A string field, trimmed; `min` 1 makes it required and non-blank. */
export function textField(max: number, required?: string) {
  const base = z
    .string()
    .trim()
    .max(max)
    .refine((s) => !s.includes(NUL), "text may not contain NUL characters");
  return required ? base.refine((s) => s.length > 0, required) : base;
}

/** Postgres' jsonb refuses the \u0000 escape anywhere in a value. */
export function storableJson(value: unknown): boolean {
  return !JSON.stringify(value).includes("\\u0000");
}

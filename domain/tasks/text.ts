// Text and JSON inputs that Postgres can store: a NUL character would fail the insert (a 500), so it is a 400.
import { z } from "zod";
import { visibleLength } from "../visible-text";

const NUL = "\u0000";

/**
 * A string field, trimmed. With `required` it must show at least `minVisible` characters a reader can
 * see (default 1): blank, or only zero-width and other invisible characters, is refused with `required`.
 */
export function textField(max: number, required?: string, minVisible = 1) {
  // A required field also states a floor JSON Schema can carry (minLength 1, not blank), so MCP and
  // OpenAPI clients refuse "" before sending; what they cannot see (invisible characters) stays below.
  const start = required ? z.string().min(1, { message: required, abort: true }).regex(/\S/, { message: required, abort: true }) : z.string();
  const base = start
    .trim()
    .max(max)
    .refine((s) => !s.includes(NUL), "text may not contain NUL characters");
  return required ? base.refine((s) => visibleLength(s) >= minVisible, required) : base;
}

/** Postgres' jsonb refuses the \u0000 escape anywhere in a value. */
export function storableJson(value: unknown): boolean {
  return !JSON.stringify(value).includes("\\u0000");
}

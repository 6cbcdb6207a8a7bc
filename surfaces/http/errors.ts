// The refusal bodies of the API (`QuorumError.toBody()` plus REST's `hint`), one schema per code that
// carries fields of its own, and which refusals each status may bring.
import { z } from "zod";
import { message, reservationHolder } from "./views";

const base = {
  /** The machine-readable reason clients switch on (`stale`, `stale_fence`, `reserved`, …). */
  error: z.string(),
  message: z.string(),
  /** What to do next, worded as routes, when the server suggests something. */
  hint: z.string().optional(),
};

export const errorBody = z.looseObject(base);
export const invalidError = z.looseObject({
  ...base,
  error: z.literal("invalid"),
  issues: z.array(z.looseObject({ message: z.string(), path: z.array(z.union([z.string(), z.number()])) })).optional(),
});
export const tooLargeError = z.looseObject({ ...base, error: z.literal("payload_too_large"), limitBytes: z.number().int() });
export const staleError = z.looseObject({
  ...base,
  error: z.literal("stale"),
  /** The messages from others you have not acked, oldest first. */
  unread: z.array(message),
  unreadCount: z.number().int(),
  /** Send the same post again with this token (once, in this room, for a while) instead of acking. */
  holdToken: z.string(),
  hint: z.string(),
});
export const rateLimitedError = z.looseObject({ ...base, error: z.enum(["rate_limited", "too_many_streams"]), retryAfterMs: z.number() });
export const reservedError = z.looseObject({ ...base, error: z.literal("reserved"), holders: z.array(reservationHolder) });
export const cycleError = z.looseObject({ ...base, error: z.literal("cycle"), path: z.array(z.string()) });
export const staleFenceError = z.looseObject({ ...base, error: z.literal("stale_fence") });
export const outputConflictError = z.looseObject({
  ...base,
  error: z.literal("output_conflict"),
  /** How many items the task holds: the next one goes at outputCount + 1. */
  outputCount: z.number().int(),
});

/** A conflict's body: one of the named codes with fields of their own, or one of `others` (`wrong_status`, `duplicate`, …). */
function conflict(named: z.ZodObject[], others: string[]): z.ZodType {
  if (named.length === 0 && others.length === 0) return errorBody;
  const rest = others.length ? [z.looseObject({ ...base, error: z.enum(others as [string, ...string[]]) })] : [];
  const branches = [...named, ...rest];
  return branches.length === 1 ? branches[0] : z.union(branches);
}

export type Refusal = 400 | 401 | 403 | 404 | 409 | 413 | 429;

export const REFUSAL_TEXT: Record<Refusal, string> = {
  400: "invalid request: a malformed body, query or path (zod `issues` say where)",
  401: "no valid credential: send `Authorization: Bearer <key>` or sign in",
  403: "the caller may not do this (or a cookie request that is not same-origin JSON)",
  404: "no such resource (or one the caller may not see)",
  409: "refused by a rule: the `error` code says which",
  413: "the request body is over 1 MiB",
  429: "too many: wait `retryAfterMs` and try again",
};

/** The body schema of a refusal with this status; `specific` names the codes with fields of their own. */
export function refusalSchema(status: Refusal, specific: { conflicts?: z.ZodObject[]; otherConflicts?: string[] } = {}): z.ZodType {
  switch (status) {
    case 400:
      return invalidError;
    case 413:
      return tooLargeError;
    case 429:
      return rateLimitedError;
    case 409:
      return conflict(specific.conflicts ?? [], specific.otherConflicts ?? []);
    default:
      return errorBody;
  }
}

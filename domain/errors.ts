// One error type for every refusal; its kind decides the HTTP status, its code the JSON `error`.
// Messages name no surface (no route, no tool): a `hint` says what to do next, and each surface
// (REST, MCP) words it with its own operations.
export type ErrorKind = "invalid" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "too_large" | "rate_limited";

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
};

/** A next step a refusal suggests, in surface-neutral terms. */
export type NextStep =
  /** Move your seen-cursor in `room` up to `seq` (the ack). */
  | { action: "ack"; room: string; seq: number }
  /** Send the same post to `room` again, carrying the refusal's `holdToken`. */
  | { action: "retry_with_hold_token"; room: string };

/** The next steps a refusal suggests, any one of which will do, most usual first. */
export type Hint = readonly NextStep[];

export class QuorumError extends Error {
  /** What to do next, for a surface to word with its own operations; never part of `toBody()`. */
  readonly hint?: Hint;

  constructor(
    readonly kind: ErrorKind,
    /** The institution that refused: room, task, decision, auth… (`kind:surface` in logs). */
    readonly surface: string,
    /** The machine-readable reason clients switch on: `duplicate`, `stale_fence`, … */
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** `cause`: the error this refusal was made from, kept for logs (ES2022 `Error.cause`); never part of `toBody()`. */
    options?: { cause?: unknown; hint?: Hint },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "QuorumError";
    if (options?.hint?.length) this.hint = options.hint;
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }

  /** The JSON body every surface sends; a surface adds its own wording of `hint` as a `hint` string. */
  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra };
  }
}

/** The refusals by kind. Each takes an optional last `cause`: a refusal made from a caught error passes that error on. */
export const fail = {
  invalid: (surface: string, message: string, extra?: Record<string, unknown>, cause?: unknown) => new QuorumError("invalid", surface, "invalid", message, extra, { cause }),
  unauthorized: (message = "sign in, or send Authorization: Bearer <key>", cause?: unknown) => new QuorumError("unauthorized", "auth", "unauthorized", message, {}, { cause }),
  forbidden: (surface: string, message: string, cause?: unknown) => new QuorumError("forbidden", surface, "forbidden", message, {}, { cause }),
  notFound: (surface: string, message: string, cause?: unknown) => new QuorumError("not_found", surface, "not_found", message, {}, { cause }),
  conflict: (surface: string, code: string, message: string, extra?: Record<string, unknown>, hint?: Hint, cause?: unknown) =>
    new QuorumError("conflict", surface, code, message, extra, { hint, cause }),
  rateLimited: (surface: string, message: string, extra?: Record<string, unknown>, cause?: unknown) =>
    new QuorumError("rate_limited", surface, "rate_limited", message, extra, { cause }),
  /** A request larger than `limitBytes`, refused before it is read in full. */
  tooLarge: (surface: string, limitBytes: number, cause?: unknown) =>
    new QuorumError("too_large", surface, "payload_too_large", `the request body may hold at most ${limitBytes} bytes`, { limitBytes }, { cause }),
};

/** The SQLSTATE of a database error, whether postgres.js threw it or drizzle wrapped it (then it is the cause's). */
export function sqlStateOf(error: unknown): string | undefined {
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = failure?.cause?.code ?? failure?.code;
  return typeof code === "string" ? code : undefined;
}

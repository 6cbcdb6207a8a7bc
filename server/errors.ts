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
    options?: { cause?: unknown; hint?: Hint },
  ) {
    super(message, options);
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

export const fail = {
  invalid: (surface: string, message: string, extra?: Record<string, unknown>) => new QuorumError("invalid", surface, "invalid", message, extra),
  unauthorized: (message = "sign in, or send Authorization: Bearer <key>") => new QuorumError("unauthorized", "auth", "unauthorized", message),
  forbidden: (surface: string, message: string) => new QuorumError("forbidden", surface, "forbidden", message),
  notFound: (surface: string, message: string) => new QuorumError("not_found", surface, "not_found", message),
  conflict: (surface: string, code: string, message: string, extra?: Record<string, unknown>, hint?: Hint) => new QuorumError("conflict", surface, code, message, extra, { hint }),
  rateLimited: (surface: string, message: string, extra?: Record<string, unknown>) => new QuorumError("rate_limited", surface, "rate_limited", message, extra),
  /** A request larger than `limitBytes`, refused before it is read in full. */
  tooLarge: (surface: string, limitBytes: number) =>
    new QuorumError("too_large", surface, "payload_too_large", `the request body may hold at most ${limitBytes} bytes`, { limitBytes }),
};

// One error type for every refusal; its kind decides the HTTP status, its code the JSON `error`.
export type ErrorKind = "invalid" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "rate_limited";

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
};

export class QuorumError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** The institution that refused: room, task, decision, auth… (`kind:surface` in logs). */
    readonly surface: string,
    /** The machine-readable reason clients switch on: `duplicate`, `stale_fence`, … */
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "QuorumError";
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }

  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra };
  }
}

export const fail = {
  invalid: (surface: string, message: string, extra?: Record<string, unknown>) =>
    new QuorumError("invalid", surface, "invalid", message, extra),
  unauthorized: (message = "sign in, or send Authorization: Bearer <key>") =>
    new QuorumError("unauthorized", "auth", "unauthorized", message),
  forbidden: (surface: string, message: string) => new QuorumError("forbidden", surface, "forbidden", message),
  notFound: (surface: string, message: string) => new QuorumError("not_found", surface, "not_found", message),
  conflict: (surface: string, code: string, message: string, extra?: Record<string, unknown>) =>
    new QuorumError("conflict", surface, code, message, extra),
  rateLimited: (surface: string, message: string, extra?: Record<string, unknown>) =>
    new QuorumError("rate_limited", surface, "rate_limited", message, extra),
};

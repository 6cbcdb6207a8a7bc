// Retry-on-rate-limit for the live clients: 429, 503 and 529 (overloaded) are tried again, honouring
// Retry-After, with jittered exponential backoff, a bounded number of times; everything else fails now.
import { z } from "zod";
import { ModelError } from "./model-client";

export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  /** The longest backoff, and the longest Retry-After honoured; a server asking for more fails the call. */
  maxDelayMs: number;
  /** Injected so tests neither wait nor guess: they read the delays asked for. */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503, 529]);

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** Retry-After in milliseconds: `retry-after-ms`, delta-seconds, or an HTTP date; null when absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Equal jitter: half the exponential step for sure, the other half at random. */
function backoff(attempt: number, policy: RetryPolicy): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + (policy.random() * step) / 2);
}

/** Honour the server's wait, plus up to 10% jitter so that many clients do not return at once. */
function honour(waitMs: number, policy: RetryPolicy): number {
  return Math.round(waitMs * (1 + policy.random() * 0.1));
}

async function excerpt(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** POSTs JSON, retrying what the policy allows; returns the first successful response. */
export async function postWithRetry(
  label: string,
  url: string,
  init: { headers: Record<string, string>; body: string; signal?: AbortSignal },
  policy: RetryPolicy = defaultRetryPolicy,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= policy.maxAttempts;
    let response: Response;
    try {
      response = await fetch(url, { method: "POST", headers: init.headers, body: init.body, signal: init.signal });
    } catch (error) {
      if (init.signal?.aborted || last) {
        throw new ModelError(`${label}: cannot reach ${url} after ${attempt} tries: ${(error as Error).message}`, null, { cause: error });
      }
      await policy.sleep(backoff(attempt, policy));
      continue;
    }
    if (response.ok) return response;
    if (!RETRYABLE_STATUSES.has(response.status) || last) {
      const body = await excerpt(response);
      const tries = RETRYABLE_STATUSES.has(response.status) ? ` after ${attempt} tries` : "";
      throw new ModelError(`${label}: HTTP ${response.status}${tries}: ${body}`, response.status);
    }
    const asked = retryAfterMs(response.headers);
    await response.body?.cancel();
    if (asked !== null && asked > policy.maxDelayMs) {
      throw new ModelError(`${label}: HTTP ${response.status}, and the server asks to wait ${asked} ms (more than ${policy.maxDelayMs})`, response.status);
    }
    await policy.sleep(asked !== null ? honour(asked, policy) : backoff(attempt, policy));
  }
}

/** postWithRetry, then the body read as JSON and checked against the vendor's wire schema. */
export async function postForJson<T>(
  label: string,
  url: string,
  init: { headers: Record<string, string>; body: string; signal?: AbortSignal },
  policy: RetryPolicy,
  schema: z.ZodType<T>,
  what: string,
): Promise<T> {
  const response = await postWithRetry(label, url, init, policy);
  const raw = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ModelError(`${label}: the response is not JSON: ${raw.slice(0, 200)}`, response.status, { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ModelError(`${label}: malformed ${what} (${z.prettifyError(parsed.error).replace(/\n/g, " ")}): ${raw.slice(0, 200)}`, response.status);
  }
  return parsed.data;
}

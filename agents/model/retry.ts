// Transient versus permanent failures of the live clients. Timeouts, connection errors, 5xx (529
// overloaded included) and 429 are tried again with jittered exponential backoff, honouring
// Retry-After, while the call's time budget lasts; 4xx (401, 403, 404, …) and unreadable responses
// are permanent at once. Every retry is reported to the caller (the loop journals it as ModelRetried).
import { z } from "zod";
import { ModelError, type RetryNotice } from "./model-client";

export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  /** The longest backoff, and the longest Retry-After honoured; a server asking for more fails the call. */
  maxDelayMs: number;
  /** One attempt's ceiling: a response that stalls past it is aborted and counts as transient. */
  timeoutMs?: number;
  /** The call's budget of time, every attempt and wait included: no retry is begun that would pass it. */
  budgetMs?: number;
  /** Injected so tests neither wait nor guess: they read the delays asked for. */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now?: () => number;
}

/** 429 and every 5xx (500, 502, 503, 504, 529 overloaded) are worth another try. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_BUDGET_MS = 300_000;

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 60_000,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  budgetMs: DEFAULT_BUDGET_MS,
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

export interface PostInit {
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
  /** Told before each wait for another try. */
  onRetry?: (notice: RetryNotice) => void | Promise<void>;
}

type Attempt = { ok: true; response: Response; text: string } | { ok: false; status: number | null; error: string; waitMs: number | null };

/** One try: the whole body is read under the attempt's timeout, so a stall mid-body is a timeout too. */
async function attemptOnce(url: string, init: PostInit, policy: RetryPolicy): Promise<Attempt> {
  const timeout = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeout)]) : AbortSignal.timeout(timeout);
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: init.headers, body: init.body, signal });
    if (response.ok) return { ok: true, response, text: await response.text() };
  } catch (error) {
    if (init.signal?.aborted) throw new ModelError(`the call was aborted: ${(error as Error).message}`, null, { cause: error, permanent: true });
    const timedOut = (error as Error).name === "TimeoutError" || signal.aborted;
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code;
    return {
      ok: false,
      status: null,
      error: timedOut ? `no response within ${timeout} ms` : `cannot reach ${url}${cause ? ` (${cause})` : ""}: ${(error as Error).message}`,
      waitMs: null,
    };
  }
  const asked = retryAfterMs(response.headers);
  return { ok: false, status: response.status, error: `HTTP ${response.status}: ${await excerpt(response)}`, waitMs: asked };
}

/** POSTs JSON, retrying transient failures within the policy's tries and time; returns the successful response's text. */
export async function postWithRetry(label: string, url: string, init: PostInit, policy: RetryPolicy = defaultRetryPolicy): Promise<{ status: number; text: string }> {
  const now = policy.now ?? Date.now;
  const started = now();
  const budget = policy.budgetMs ?? DEFAULT_BUDGET_MS;
  for (let attempt = 1; ; attempt++) {
    const result = await attemptOnce(url, init, policy);
    if (result.ok) return { status: result.response.status, text: result.text };
    const { status, error } = result;
    if (status !== null && !isTransientStatus(status)) {
      throw new ModelError(`${label}: ${error}`, status, { permanent: true, attempts: attempt });
    }
    if (attempt >= policy.maxAttempts) {
      throw new ModelError(`${label}: ${error} (after ${attempt} tries)`, status, { permanent: false, attempts: attempt });
    }
    if (result.waitMs !== null && result.waitMs > policy.maxDelayMs) {
      throw new ModelError(`${label}: HTTP ${status}, and the server asks to wait ${result.waitMs} ms (more than ${policy.maxDelayMs})`, status, {
        permanent: false,
        attempts: attempt,
      });
    }
    const delayMs = result.waitMs !== null ? honour(result.waitMs, policy) : backoff(attempt, policy);
    if (now() - started + delayMs > budget) {
      throw new ModelError(`${label}: ${error} (after ${attempt} tries; another would pass the call's ${budget} ms budget of time)`, status, {
        permanent: false,
        attempts: attempt,
      });
    }
    await init.onRetry?.({ attempt, status, error: `${label}: ${error}`, delayMs });
    await policy.sleep(delayMs);
  }
}

/** postWithRetry, then the body read as JSON and checked against the vendor's wire schema (unreadable is permanent). */
export async function postForJson<T>(label: string, url: string, init: PostInit, policy: RetryPolicy, schema: z.ZodType<T>, what: string): Promise<T> {
  const { status, text: raw } = await postWithRetry(label, url, init, policy);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ModelError(`${label}: the response is not JSON: ${raw.slice(0, 200)}`, status, { cause: error, permanent: true });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ModelError(`${label}: malformed ${what} (${z.prettifyError(parsed.error).replace(/\n/g, " ")}): ${raw.slice(0, 200)}`, status, { permanent: true });
  }
  return parsed.data;
}

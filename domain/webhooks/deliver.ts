// The deliverer: claims due outbox rows (SKIP LOCKED, so instances never send one attempt twice),
// POSTs each signed, and records the outcome: delivered, retried with backoff, or given up; 24 h of
// failures disables the endpoint. Runs as a sweeper in every app instance (domain/sweepers/schedule.ts).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { and, eq, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { InwardAddress, isInwardAddress, literalAddressOf, outsideOnlyLookup } from "./outside-only";
import { hostOf } from "./view";
import { webhookHeaders } from "./signature";

/** The delivery type of an A2A push config's notices (domain/webhooks/a2a-push.ts queues them). */
export const A2A_PUSH_TYPE = "a2a.task";

/** A receiver that has not answered in 10 s has failed the attempt. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * A claim holds a row this long: past the attempt's timeout, so a live deliverer's attempt is never
 * sent again meanwhile; a deliverer that died mid-attempt leaves it to another after this.
 */
export const CLAIM_MS = 60_000;
/** A delivery still failing this long after it was written is given up; an endpoint failing this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 5_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_CAP_MS = 6 * 60 * 60_000;
const BATCH = 20;

/**
 * The wait after the `failures`-th failed attempt: 5 s after the first (a blip is retried within 10 s),
 * then 30 s doubling per failure up to 6 h, each ±25 % jitter so that many failing deliveries spread out.
 */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  if (failures <= 1) return FIRST_RETRY_MS;
  const base = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 2), BACKOFF_CAP_MS);
  return Math.round(base * (0.75 + random() * 0.5));
}

interface Claimed {
  id: string;
  endpointId: string;
  type: string;
  body: string;
  attempt: number;
  createdAt: Date;
  url: string;
  secret: string;
  /** An A2A push config's receiver checks: its token, and the Authorization its agent asked for (domain/webhooks/a2a-push.ts). */
  notificationToken: string | null;
  authorization: string | null;
}

interface Outcome {
  status: number | null;
  error: string | null;
  ms: number;
}

export interface DeliverResult {
  claimed: number;
  delivered: number;
  failed: number;
  /** Endpoints this pass disabled after 24 h of failures. */
  disabled: string[];
}

export interface DeliverOptions {
  /** The jitter's source; tests fix it. */
  random?: () => number;
  limit?: number;
  /** Deliver to loopback and private addresses too (QUORUM_WEBHOOK_ALLOW_PRIVATE=1; tests with a local receiver). */
  allowInward?: boolean;
}

/** One statement: take due rows nobody else holds, count the attempt and hold them for CLAIM_MS. */
async function claimDue(db: Db, now: Date, limit: number): Promise<Claimed[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await db.execute<{
    id: string;
    endpoint_id: string;
    type: string;
    body: string;
    attempts: number;
    created_at: string | Date;
    url: string;
    secret: string;
    notification_token: string | null;
    authorization: string | null;
  }>(sql`
    with due as (
      select id from ${webhookDeliveries}
       where status = 'pending' and next_attempt_at <= ${at}
       order by next_attempt_at
       limit ${limit}
       for update skip locked
    )
    update ${webhookDeliveries} d
       set attempts = d.attempts + 1, last_attempt_at = ${at}, next_attempt_at = ${at} + ${`${CLAIM_MS} milliseconds`}::interval
      from due, ${webhookEndpoints} e
     where d.id = due.id and e.id = d.endpoint_id
    returning d.id, d.endpoint_id, d.type, d.body, d.attempts, d.created_at, e.url, e.secret, e.notification_token, e.authorization`);
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    type: r.type,
    body: r.body,
    attempt: r.attempts,
    createdAt: new Date(r.created_at),
    url: r.url,
    secret: r.secret,
    notificationToken: r.notification_token,
    authorization: r.authorization,
  }));
}

/** What a failed attempt records: a category, never the peer's or the socket's own words (agents read WebhookFailed). */
function failureCategory(error: unknown): string {
  if (error instanceof InwardAddress) return "refused: the address is inside this network (QUORUM_WEBHOOK_ALLOW_PRIVATE=1 allows it)";
  const { name, code } = (error ?? {}) as NodeJS.ErrnoException;
  if (name === "AbortError" || name === "TimeoutError") return `no answer in ${ATTEMPT_TIMEOUT_MS / 1000} s`;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "name not found";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection closed";
  if (typeof code === "string" && /CERT|SSL|TLS/.test(code)) return "TLS failed";
  return "connection failed";
}

/** An A2A push is A2A's JSON, with the token and Authorization its receiver was promised (A2A §9.5), beside the signature. */
function a2aHeaders(row: Claimed): Record<string, string> {
  if (row.type !== A2A_PUSH_TYPE) return {};
  return {
    "content-type": "application/a2a+json",
    ...(row.notificationToken ? { "x-a2a-notification-token": row.notificationToken } : {}),
    ...(row.authorization ? { authorization: row.authorization } : {}),
  };
}

/** POSTs the body and resolves with the status; the connection's address is checked on the way unless inward ones are allowed. */
function post(row: Claimed, now: Date, allowInward: boolean): Promise<number> {
  const url = new URL(row.url);
  const literal = literalAddressOf(url);
  if (!allowInward && literal !== null && isInwardAddress(literal)) return Promise.reject(new InwardAddress(`${literal} is inside this network`));
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...webhookHeaders(row.secret, row.id, now, row.body), ...a2aHeaders(row), "content-length": Buffer.byteLength(row.body) },
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        ...(allowInward ? {} : { lookup: outsideOnlyLookup }),
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    request.on("error", reject);
    request.end(row.body);
  });
}

/** One POST: 2xx is success; anything else (a redirect too: never followed), a network error or 10 s of silence is a failure. */
async function attempt(row: Claimed, now: Date, allowInward: boolean): Promise<Outcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const status = await post(row, now, allowInward);
    const ok = status >= 200 && status < 300;
    return { status, error: ok ? null : `HTTP ${status}`, ms: ms() };
  } catch (error) {
    return { status: null, error: failureCategory(error), ms: ms() };
  }
}

/** Writes one attempt's outcome; a row someone else finished meanwhile (removed, disabled) is left alone. */
async function record(db: Db, row: Claimed, outcome: Outcome, now: Date, random: () => number): Promise<{ disabled: boolean } | null> {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.endpointId)).for("update");
    const mine = and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.attempts, row.attempt));
    const base = { endpointId: row.endpointId, deliveryId: row.id, type: row.type, attempt: row.attempt, ms: outcome.ms };
    if (outcome.error === null) {
      const done = await tx
        .update(webhookDeliveries)
        .set({ status: "delivered", deliveredAt: now, lastStatus: outcome.status, lastError: null })
        .where(mine)
        .returning({ id: webhookDeliveries.id });
      if (done.length === 0) return null;
      // A success ends a failing streak, and brings back an endpoint disabled before (a human's test).
      await tx.update(webhookEndpoints).set({ failingSince: null, disabledAt: null }).where(eq(webhookEndpoints.id, row.endpointId));
      await appendEvent(tx, { kind: "WebhookDelivered", t: now, data: { ...base, status: outcome.status! } });
      return { disabled: false };
    }
    const givenUp = now.getTime() - row.createdAt.getTime() >= GIVE_UP_AFTER_MS;
    const next = givenUp ? null : new Date(now.getTime() + retryDelayMs(row.attempt, random));
    const failed = await tx
      .update(webhookDeliveries)
      .set({ status: givenUp ? "failed" : "pending", nextAttemptAt: next ?? now, lastStatus: outcome.status, lastError: outcome.error })
      .where(mine)
      .returning({ id: webhookDeliveries.id });
    if (failed.length === 0) return null;
    await appendEvent(tx, { kind: "WebhookFailed", t: now, data: { ...base, status: outcome.status, error: outcome.error, nextAttemptAt: next?.toISOString() ?? null } });
    const failingSince = endpoint.failingSince ?? now;
    if (!endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince }).where(eq(webhookEndpoints.id, endpoint.id));
    if (endpoint.disabledAt || now.getTime() - failingSince.getTime() < GIVE_UP_AFTER_MS) return { disabled: false };
    await tx.update(webhookEndpoints).set({ disabledAt: now }).where(eq(webhookEndpoints.id, endpoint.id));
    const abandoned = await tx
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: "endpoint disabled after 24 h of failures" })
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    await appendEvent(tx, {
      kind: "WebhookDisabled",
      t: now,
      data: { endpointId: endpoint.id, host: hostOf(endpoint.url), failingSince: failingSince.toISOString(), abandoned: abandoned.length },
    });
    return { disabled: true };
  });
}

/** One pass: every due delivery is attempted once, concurrently, and its outcome recorded. */
export async function deliverWebhooks(db: Db, clock: Clock, options: DeliverOptions = {}): Promise<DeliverResult> {
  const now = clock.now();
  const claimed = await claimDue(db, now, options.limit ?? BATCH);
  const result: DeliverResult = { claimed: claimed.length, delivered: 0, failed: 0, disabled: [] };
  await Promise.all(
    claimed.map(async (row) => {
      const outcome = await attempt(row, now, options.allowInward ?? false);
      if (outcome.error === null) result.delivered += 1;
      else result.failed += 1;
      const recorded = await record(db, row, outcome, clock.now(), options.random ?? Math.random);
      if (recorded?.disabled) result.disabled.push(row.endpointId);
    }),
  );
  return result;
}

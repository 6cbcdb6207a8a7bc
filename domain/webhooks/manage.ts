// Humans register, list, remove and test webhook endpoints; each change is journalled (never the secret).
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE, type WebhookEventType, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { newDeliveryId, newWebhookSecret } from "./signature";
import { hostOf, lockEndpoint, readWebhookViews, webhookView, type WebhookView } from "./view";

/** Where a webhook goes: an http(s) URL (which addresses it may reach is the deliverer's to check, ./outside-only.ts). */
export const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "an http:// or https:// URL");

export const addWebhookInput = z.strictObject({
  url: webhookUrl,
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1, "subscribe to at least one event type")
    .max(WEBHOOK_EVENT_TYPES.length)
    .refine((types) => new Set(types).size === types.length, "each event type once"),
  description: z.string().trim().max(200).optional(),
});
export type AddWebhookInput = z.infer<typeof addWebhookInput>;

/** The one answer that carries the secret: the receiver needs it to verify signatures. */
export type AddedWebhook = WebhookView & { secret: string };

function requireHuman(caller: Principal, what: string): void {
  if (caller.kind !== "human") throw fail.forbidden("webhook", `only humans ${what} webhooks`);
}

export async function addWebhook(db: Db, caller: Principal, input: AddWebhookInput, clock: Clock): Promise<AddedWebhook> {
  requireHuman(caller, "add");
  const now = clock.now();
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ url: input.url, events: input.events, description: input.description ?? "", secret, createdBy: caller.id, createdAt: now })
      .returning();
    await appendEvent(tx, { kind: "WebhookAdded", actor: caller.id, t: now, data: { endpointId: row.id, host: hostOf(row.url), events: row.events } });
    return { ...webhookView(row), secret };
  });
}

export interface WebhookList {
  items: WebhookView[];
  /** What an endpoint may subscribe to, for forms. */
  eventTypes: readonly WebhookEventType[];
}

export async function listWebhooks(db: Db, caller: Principal): Promise<WebhookList> {
  requireHuman(caller, "list");
  return { items: await readWebhookViews(db), eventTypes: WEBHOOK_EVENT_TYPES };
}

/** The endpoint gets nothing more; deliveries still pending are given up (they stay listed as failed). */
export async function removeWebhook(db: Db, caller: Principal, id: string, clock: Clock): Promise<void> {
  requireHuman(caller, "remove");
  const now = clock.now();
  await db.transaction(async (tx) => retireEndpoint(tx, caller, await lockEndpoint(tx, id), now));
}

/** Removes a locked endpoint inside the caller's transaction (a human's, or an agent's A2A push config: domain/webhooks/a2a-push.ts). */
export async function retireEndpoint(tx: Tx, caller: Principal, row: typeof webhookEndpoints.$inferSelect, now: Date): Promise<void> {
  await tx.update(webhookEndpoints).set({ deletedAt: now }).where(eq(webhookEndpoints.id, row.id));
  const abandoned = await tx
    .update(webhookDeliveries)
    .set({ status: "failed", lastError: "endpoint removed" })
    .where(and(eq(webhookDeliveries.endpointId, row.id), eq(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  await appendEvent(tx, { kind: "WebhookRemoved", actor: caller.id, taskId: row.taskId, t: now, data: { endpointId: row.id, host: hostOf(row.url), abandoned: abandoned.length } });
}

/**
 * Queues a `webhook.test` delivery, sent like any other (signed, retried). It goes to a disabled
 * endpoint too: its success is how a human brings that endpoint back.
 */
export async function queueTestDelivery(db: Db, caller: Principal, id: string, clock: Clock): Promise<{ deliveryId: string; endpointId: string }> {
  requireHuman(caller, "test");
  const now = clock.now();
  return db.transaction(async (tx) => {
    const row = await lockEndpoint(tx, id);
    const deliveryId = newDeliveryId();
    const body = JSON.stringify({ type: WEBHOOK_TEST_TYPE, timestamp: now.toISOString(), data: { endpointId: row.id, requestedBy: caller.name } });
    await tx.insert(webhookDeliveries).values({ id: deliveryId, endpointId: row.id, type: WEBHOOK_TEST_TYPE, body, nextAttemptAt: now, createdAt: now });
    await appendEvent(tx, { kind: "WebhookTestQueued", actor: caller.id, t: now, data: { endpointId: row.id, deliveryId } });
    return { deliveryId, endpointId: row.id };
  });
}

// The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of "id.timestamp.body", keyed with the
// bytes of the secret after `whsec_`. Receivers verify it with any Standard Webhooks library.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A fresh endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** What such a secret looks like in any text (domain/hub-secrets.ts redacts it). */
export const WEBHOOK_SECRET_SHAPE = new RegExp(`\\b${PREFIX}[A-Za-z0-9+/]{43}=`);

/** A delivery's `webhook-id`: fixed when the row is written, so every retry carries the same one. */
export function newDeliveryId(): string {
  return `msg_${randomBytes(16).toString("hex")}`;
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt; the timestamp is the attempt's, the id and body the delivery's. */
export function webhookHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "Quorum-Webhooks/1",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, id, timestamp, body),
  };
}

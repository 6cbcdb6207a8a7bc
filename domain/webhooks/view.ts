// What humans see of their webhooks: each endpoint (never its secret) with its recent deliveries.
import { and, desc, eq, isNull } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints, type WebhookDeliveryStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";

/** How many deliveries each endpoint lists, newest first. */
export const RECENT_DELIVERIES = 10;

export interface WebhookDeliveryView {
  id: string;
  type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string;
  createdAt: string;
  /** `failing`: the last attempts failed since `failingSince`; `disabled`: 24 h of that, nothing more is sent. */
  status: "active" | "failing" | "disabled";
  failingSince: string | null;
  disabledAt: string | null;
  deliveries: WebhookDeliveryView[];
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

function deliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    lastAttemptAt: iso(row.lastAttemptAt),
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: iso(row.deliveredAt),
  };
}

export function webhookView(row: EndpointRow, deliveries: DeliveryRow[] = []): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    status: row.disabledAt ? "disabled" : row.failingSince ? "failing" : "active",
    failingSince: iso(row.failingSince),
    disabledAt: iso(row.disabledAt),
    deliveries: deliveries.map(deliveryView),
  };
}

/** The URL's host, which is all the journal names of an endpoint (a URL's path or query may carry a token). */
export function hostOf(url: string): string {
  return new URL(url).host;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A live (not removed) endpoint, locked for the caller's transaction; 404 otherwise. */
export async function lockEndpoint(tx: Executor, id: string): Promise<EndpointRow> {
  if (!UUID.test(id)) throw fail.notFound("webhook", `no webhook ${id}`);
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
    .for("update");
  if (!row) throw fail.notFound("webhook", `no webhook ${id}`);
  return row;
}

/** Every live endpoint humans registered (agents' A2A push configs are their own), oldest first, with its recent deliveries. */
export async function readWebhookViews(db: Executor): Promise<WebhookView[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(isNull(webhookEndpoints.deletedAt), isNull(webhookEndpoints.taskId)))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  if (rows.length === 0) return [];
  const recent = await Promise.all(
    rows.map((row) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, row.id))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(RECENT_DELIVERIES),
    ),
  );
  return rows.map((row, i) => webhookView(row, recent[i]));
}

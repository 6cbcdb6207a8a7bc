// Webhooks: endpoints humans register, and the transactional outbox of signed deliveries to them.
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";
import { tasks } from "./tasks";

/** The event types an endpoint may subscribe to (docs/API.md, "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  "escalation.opened",
  "escalation.resolved",
  "review.requested",
  "budget.exhausted",
  "lease.expired",
  "agent.stalled",
  "decision.resolved",
  "diagnosis.found",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What `POST /api/webhooks/:id/test` sends; never subscribed to, always allowed. */
export const WEBHOOK_TEST_TYPE = "webhook.test";

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description").notNull().default(""),
    /** `whsec_` + base64 of 32 random bytes, the Standard Webhooks form; shown once, never journalled. */
    secret: text("secret").notNull(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** Since when every attempt has failed (null after a success); 24 h of it disables the endpoint. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** A removed endpoint keeps its rows (deliveries name it) but gets nothing more. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * An A2A push notification config (domain/webhooks/a2a-push.ts): the task whose changes it is told of, the id its agent
     * knows it by, the token and Authorization its receiver checks, the last status pushed (a digest: nothing is
     * pushed twice) and how far the task's changes were looked at. Null on the endpoints humans register.
     */
    taskId: uuid("task_id").references(() => tasks.id),
    configId: text("config_id"),
    notificationToken: text("notification_token"),
    authorization: text("authorization"),
    pushedState: text("pushed_state"),
    checkedThrough: timestamp("checked_through", { withTimezone: true }),
  },
  (t) => [
    check("webhook_endpoints_url_check", sql`${t.url} ~ '^https?://'`),
    check("webhook_endpoints_events_check", sql`cardinality(${t.events}) between 1 and 16`),
    check("webhook_endpoints_a2a_check", sql`(${t.taskId} is null) = (${t.configId} is null)`),
    // The pushes' pass reads the live A2A configs (domain/webhooks/a2a-push.ts).
    index("webhook_endpoints_task_idx").on(t.taskId).where(sql`${t.taskId} is not null and ${t.deletedAt} is null`),
    uniqueIndex("webhook_endpoints_config_idx").on(t.taskId, t.createdBy, t.configId).where(sql`${t.deletedAt} is null`),
  ],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** The `webhook-id` header (`msg_…`): the same on every attempt, so a receiver can deduplicate. */
    id: text("id").primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    type: text("type").notNull(),
    /** The exact body sent on every attempt: `{type, timestamp, data}`. */
    body: text("body").notNull(),
    /**
     * The journal event that caused it (null for a test). No foreign key: the journal is append-only
     * already, and a reference would make TRUNCATE fail on it before the journal's own guard speaks.
     */
    eventId: bigint("event_id", { mode: "number" }),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When a deliverer may next take it: the retry time, or the end of the current attempt's claim. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    // The deliverer's claim path: due pending rows in order.
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_event_idx").on(t.eventId),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed')`),
    check("webhook_deliveries_delivered_check", sql`(${t.status} = 'delivered') = (${t.deliveredAt} is not null)`),
  ],
);

// Forges: the hosts of remote repositories a human connected in Settings, each with the token the hub uses there.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { flights } from "./flights";
import { tasks } from "./tasks";
import { principals } from "./principals";

/** The forges Quorum speaks to; GitHub (and GitHub Enterprise) for now. */
export const FORGE_KINDS = ["github"] as const;
export type ForgeKind = (typeof FORGE_KINDS)[number];

export const forgeHosts = pgTable(
  "forge_hosts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** A URL's authority, lower-case, with its port when it has one (`github.com`, `127.0.0.1:9418`): what a remote's URL is matched on. */
    host: text("host").notNull().unique(),
    kind: text("kind", { enum: FORGE_KINDS }).notNull(),
    /** The forge's REST base (`https://api.github.com`, `https://HOST/api/v3` for GitHub Enterprise). */
    apiUrl: text("api_url").notNull(),
    /** A hub secret (domain/hub-secrets.ts): never answered, never journalled, scrubbed from every tool's output. */
    token: text("token").notNull(),
    /**
     * The secret GitHub signs this host's webhook deliveries with (X-Hub-Signature-256), a hub secret like the
     * token; null: no webhook, the hub only polls.
     */
    webhookSecret: text("webhook_secret"),
    /** Whether the hub asks the forge about its open pull requests (once a minute each) rather than waiting for webhooks. */
    pollPullRequests: boolean("poll_pull_requests").notNull().default(true),
    /** An issue given this label on a repository of this host becomes a flight proposal; null: no intake. */
    intakeLabel: text("intake_label"),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("forge_hosts_host_check", sql`${t.host} = lower(${t.host}) and ${t.host} ~ '^[a-z0-9.:\\[\\]-]+$'`),
    check("forge_hosts_kind_check", sql`${t.kind} in ('github')`),
    check("forge_hosts_api_url_check", sql`${t.apiUrl} ~ '^https?://'`),
    check("forge_hosts_token_check", sql`length(${t.token}) >= 8`),
  ],
);

/**
 * Webhook deliveries received from forges, by GitHub's delivery id (X-GitHub-Delivery): a delivery seen before is
 * a replay and refused. `flightId` is the flight it concerned, whose pull request is then read again at once.
 */
export const forgeDeliveries = pgTable(
  "forge_deliveries",
  {
    deliveryId: text("delivery_id").primaryKey(),
    host: text("host").notNull(),
    event: text("event").notNull(),
    flightId: uuid("flight_id").references(() => flights.id),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("forge_deliveries_flight_idx").on(t.flightId, t.receivedAt)],
);

/**
 * What came back from a pull request and became rework on its flight: a review that requested changes, or a failed
 * check run, each once (by the forge's id for it), with the task filed for it.
 */
export const pullRequestFeedback = pgTable(
  "pull_request_feedback",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    flightId: uuid("flight_id")
      .notNull()
      .references(() => flights.id),
    kind: text("kind", { enum: ["review", "check"] }).notNull(),
    /** The review's or the check run's id on the forge. */
    forgeId: bigint("forge_id", { mode: "number" }).notNull(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("pull_request_feedback_once_idx").on(t.flightId, t.kind, t.forgeId), check("pull_request_feedback_kind_check", sql`${t.kind} in ('review', 'check')`)],
);

/**
 * An issue labelled for the team on a forge: a flight proposal waiting for a human, who starts it (its goal the
 * issue's text, editable) or dismisses it. Once per issue.
 */
export const flightProposals = pgTable(
  "flight_proposals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    host: text("host").notNull(),
    /** The repository's https URL, as a flight's `remote`. */
    remote: text("remote").notNull(),
    issueNumber: integer("issue_number").notNull(),
    issueUrl: text("issue_url").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    state: text("state", { enum: ["waiting", "started", "dismissed"] })
      .notNull()
      .default("waiting"),
    flightId: uuid("flight_id").references(() => flights.id),
    decidedBy: uuid("decided_by").references(() => principals.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("flight_proposals_issue_idx").on(t.remote, t.issueNumber), check("flight_proposals_state_check", sql`${t.state} in ('waiting', 'started', 'dismissed')`)],
);

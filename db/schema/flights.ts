// Flights: a goal given to the built-in team, the repository it works in, and its tasks.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { budgets } from "./budgets";
import { principals } from "./principals";
import { tasks } from "./tasks";

/** A check run on a flight's pull request, as the hub last read it. */
export interface PullRequestCheck {
  name: string;
  status: string;
  conclusion: string | null;
  url: string | null;
}

export const flights = pgTable(
  "flights",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** A short handle: flight 3 integrates into `quorum/flight-3`. */
    number: bigserial("number", { mode: "number" }).notNull().unique(),
    goal: text("goal").notNull(),
    /**
     * Where the team works (on the workers' machine): its own clone under QUORUM_HOME, with a worktree per
     * task. (A flight launched before flights had a source worked here in place, integrating into `main`.)
     */
    repo: text("repo").notNull(),
    /** The user's repository the flight was started on: only its `branch` is ever written there. */
    source: text("source"),
    /**
     * The repository's URL when the flight was started on a remote one (https): `source` is then the hub's own
     * clone of it under QUORUM_HOME, fetched again before each flight, and the flight's branch is pushed back.
     */
    remote: text("remote"),
    /** The pull request the hub opened on the remote's forge once the goal was accepted (number and page). */
    pullRequestNumber: integer("pull_request_number"),
    pullRequestUrl: text("pull_request_url"),
    /** When the hub last read the pull request's reviews, checks and state from its forge. */
    pullRequestCheckedAt: timestamp("pull_request_checked_at", { withTimezone: true }),
    /** Its check runs as last read from the forge: name, status, conclusion and page of each. */
    pullRequestChecks: jsonb("pull_request_checks").$type<PullRequestCheck[]>(),
    /** Its human chose to see a draft pull request as soon as the flight is green, before the goal is accepted. */
    draftPullRequest: boolean("draft_pull_request").notNull().default(false),
    /**
     * Why the forge last refused the hub's step on this flight's pull request (open it, mark it ready, read it), and
     * since when; null once a step goes through. Its human sees it under "waiting for you".
     */
    forgeRefusal: text("forge_refusal"),
    forgeRefusedAt: timestamp("forge_refused_at", { withTimezone: true }),
    /** The forge issue the flight was proposed from: its pull request closes it when merged. */
    issueNumber: integer("issue_number"),
    /** The commit of `source` the flight started from (its HEAD at launch); the goal's diff is against it. */
    baseCommit: text("base_commit"),
    /** The branch of `source` checked out at launch, where Merge brings the work; null: a detached HEAD (or a flight from before). */
    baseBranch: text("base_branch"),
    /** The suite's per-test results at the base commit, run once after setup: what was red before anyone worked. */
    baselineTests: jsonb("baseline_tests"),
    /** The branch the team integrates into, in its clone and, after each integration, in `source`. */
    branch: text("branch"),
    /** The shell command that runs the repository's tests (given, or detected at launch). */
    testCommand: text("test_command"),
    /**
     * The shell command that installs the repository's dependencies before anyone works (given, the
     * repository's `.quorum/setup`, or detected from its lockfiles at launch); null: nothing to set up.
     */
    setupCommand: text("setup_command"),
    /** Where `setupCommand` came from: `given`, `file` (.quorum/setup) or `detected`; null with no setup. */
    setupSource: text("setup_source", { enum: ["given", "file", "detected"] }),
    /** The flight's allowance: the plan splits it into the tasks' sub-budgets. */
    budgetId: uuid("budget_id").references(() => budgets.id),
    createdBy: uuid("created_by").references(() => principals.id),
    /** When the orchestrator recorded the plan: coders take the flight's tasks only then, and the suite's verdict waits for it. */
    plannedAt: timestamp("planned_at", { withTimezone: true }),
    /** Set when the orchestrator re-planned after a task was handed back (once per flight). */
    replannedAt: timestamp("replanned_at", { withTimezone: true }),
    /** The umbrella task the orchestrator owns; its children are the team's tasks. */
    goalTaskId: uuid("goal_task_id")
      .notNull()
      .references(() => tasks.id),
    /** How the roles think: `scripted` (no model configured) or the model's name. */
    mode: text("mode").notNull(),
    status: text("status", { enum: ["planning", "working", "green", "red"] })
      .notNull()
      .default("planning"),
    /** When its human merged the accepted branch into `baseBranch` (FlightMerged), and the commit `baseBranch` then stood at. */
    mergedAt: timestamp("merged_at", { withTimezone: true }),
    mergedCommit: text("merged_commit"),
    /** When its human closed it without merging (FlightClosed), and why. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedReason: text("closed_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("flights_status_check", sql`${t.status} in ('planning', 'working', 'green', 'red')`),
    // A flight ends once: merged or closed, never both.
    check("flights_ends_once_check", sql`${t.mergedAt} is null or ${t.closedAt} is null`),
    // The Room finds a message's flight from its task: the goal's is one of the two ways in.
    index("flights_goal_task_idx").on(t.goalTaskId),
  ],
);

export const flightTasks = pgTable(
  "flight_tasks",
  {
    taskId: uuid("task_id")
      .primaryKey()
      .references(() => tasks.id),
    flightId: uuid("flight_id")
      .notNull()
      .references(() => flights.id),
    /** Set once the integrator merged the accepted work into `main`. */
    integratedAt: timestamp("integrated_at", { withTimezone: true }),
    /** Set once the tester ran the suite on `main` after that integration. */
    testedAt: timestamp("tested_at", { withTimezone: true }),
    /** When the reviewer was re-asked (once) because it stayed silent past the deadline. */
    reaskedAt: timestamp("reasked_at", { withTimezone: true }),
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
    /** The task's share of the flight's allowance, which every run on the task draws on. */
    budgetId: uuid("budget_id").references(() => budgets.id),
  },
  (t) => [index("flight_tasks_flight_idx").on(t.flightId)],
);

/**
 * What a human allows an agent to start flights with: tokens in all, and how many of them the flights it
 * started took at launch. No row (or no tokens left) and the agent starts none (DESIGN §13).
 */
export const flightAllowances = pgTable(
  "flight_allowances",
  {
    agentId: uuid("agent_id")
      .primaryKey()
      .references(() => principals.id),
    tokens: bigint("tokens", { mode: "number" }).notNull(),
    committed: bigint("committed", { mode: "number" }).notNull().default(0),
    setBy: uuid("set_by").references(() => principals.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("flight_allowances_tokens_check", sql`${t.tokens} >= 0 and ${t.committed} >= 0`)],
);

// Every react-query key the browser uses, in one place. A key is an array and react-query matches by
// prefix, so each family (`tasks()`, `bill()`…) is the head of every key built from it: invalidating
// `tasks()` = ["tasks"] makes ["tasks", "detail", id] stale too. Build keys here, never inline.
import type { Window as SeriesWindow } from "@/domain/bill/series";
import type { DecisionStatus } from "@/domain/decisions/decision-view";
import type { TaskStatus } from "@/domain/tasks/view";

/** A family's key: the head every key of the family starts with. */
function family<const Head extends string>(head: Head) {
  return () => [head] as const;
}

const journal = family("journal");
const run = (runId: string) => ["run", runId] as const;
const taskJournal = (taskId: string) => ["task-journal", taskId] as const;
const bill = family("bill");
const agents = family("agent");
const presence = family("presence");
const tasks = family("tasks");
const decisions = family("decisions");
const commitments = family("commitments");
const reservations = family("reservations");
const memory = family("memory");
const diagnoses = family("diagnosis");

export const queryKeys = {
  /** The signed-in principal. */
  me: family("me"),
  /** What waits for the signed-in human (the top strip, the rail's badges, the inbox). */
  waiting: family("waiting"),
  /** How the built-in team thinks (the Room's scripted-team note). */
  team: family("team"),
  /** Everyone with presence (the shell's top strip, pickers, the room's composer). */
  principals: family("principals"),
  /** The roster page: everyone, agents with their numbers. */
  roster: family("roster"),

  /** Every agent page. */
  agents,
  agent: (agentId: string) => [...agents(), agentId] as const,

  rooms: family("rooms"),
  /** Every read of a room's messages (its whole tail, its folded stream, each flight's thread): a message makes them all stale. */
  messages: (room: string) => ["messages", room] as const,
  /** The room's stream with each flight's thread folded into one entry (the Room's conversation). */
  roomStream: (room: string) => ["messages", room, "folded"] as const,
  /** One flight's thread in the room. */
  flightThread: (room: string, flight: number) => ["messages", room, "flight", flight] as const,
  gates: (room: string) => ["gates", room] as const,
  /** Every room's presence panel. */
  presence,
  roomPresence: (room: string) => [...presence(), room] as const,

  /** Every journal list (the explorer's pages, whatever the filter). */
  journal,
  journalList: (filter: string, at: number | null) => [...journal(), "list", filter, at] as const,
  /** Every explorer view of one run (timeline, diagnosis). */
  run,
  runTimeline: (runId: string) => [...run(runId), "timeline"] as const,
  runDiagnosis: (runId: string) => [...run(runId), "diagnosis"] as const,
  /** A replay is asked for, never made stale by events. */
  replay: (runId: string) => ["replay", runId] as const,
  /** Every explorer view of one task (thread, audit). */
  taskJournal,
  taskThread: (taskId: string) => [...taskJournal(taskId), "thread"] as const,
  taskAudit: (taskId: string) => [...taskJournal(taskId), "audit"] as const,
  /** A task's diagnosis: stale with the task's events, like its thread. */
  taskDiagnosis: (taskId: string) => [...taskJournal(taskId), "diagnosis"] as const,
  /** Every flight's diagnosis: stale whenever the MAST monitor journals a finding (a run's and a task's go with their events). */
  diagnoses,
  flightDiagnosis: (flightId: string) => [...diagnoses(), "flight", flightId] as const,
  /** The journal's archived months (all, or those holding a run's or task's events): under journal, so every event refreshes them. */
  journalArchives: (scope = "all") => [...journal(), "archives", scope] as const,
  /** Every run's and every task's explorer views: an archive or a restore changes what each of them reaches. */
  everyRun: family("run"),
  everyTaskJournal: family("task-journal"),

  /** Everything on the board (columns, drawers, the explorer's task picker). */
  tasks,
  taskColumn: (status: TaskStatus) => [...tasks(), "list", status] as const,
  taskDetail: (taskId: string | null) => [...tasks(), "detail", taskId] as const,
  taskOptions: () => [...tasks(), "journal-filter"] as const,
  /** A task's change as the review reads it (refreshed with the board). */
  taskDiff: (taskId: string) => [...tasks(), "diff", taskId] as const,
  /** Tasks in review (the review notifier picks the signed-in human's). */
  reviewsWaiting: () => [...tasks(), "reviews-waiting"] as const,
  /** The flights (the Board's strip, the flight a card or a goal belongs to): under tasks, so every task change refreshes them. */
  flights: () => [...tasks(), "flights"] as const,
  /** What a flight on a folder would start from (the New flight dialog); asked for, never made stale by events. */
  repositoryInspection: (repo: string) => ["repository-inspection", repo] as const,

  /** Everything on the bill (summary, series, today, runs). */
  bill,
  billSummary: () => [...bill(), "summary"] as const,
  billSeries: (window: SeriesWindow) => [...bill(), "series", window] as const,
  billToday: (since: string) => [...bill(), "today", since] as const,
  /** The flights with their budgets and their tasks' shares (the Bill's flight tables, a task's budget). */
  billFlights: () => [...bill(), "flights"] as const,
  /** An agent's runs, or everyone's ("all"). */
  billRuns: (agentId: string | undefined) => [...bill(), "runs", agentId ?? "all"] as const,

  decisions,
  decisionList: (status: DecisionStatus | "all") => [...decisions(), "list", status] as const,
  escalations: () => [...decisions(), "escalated"] as const,

  commitments,
  commitmentGraph: () => [...commitments(), "graph"] as const,
  commitmentLedger: (owner: string, status: string) => [...commitments(), "ledger", owner, status] as const,

  /** Every reservation list, whatever its filter. */
  reservations,
  reservationList: (filter: string) => [...reservations(), filter] as const,

  memory,
  principles: () => [...memory(), "principles"] as const,
  lessons: () => [...memory(), "lessons"] as const,

  /** The Settings page's webhook endpoints and their recent deliveries. */
  webhooks: family("webhooks"),
  /** The Settings page's forge hosts (never their tokens). */
  forges: family("forges"),
  /** The Settings page's People: open invitations, and the humans who may sign in. */
  invitations: family("invitations"),
  humans: family("humans"),

  /** The Experiments page's saved tables (files `quorum experiment` writes; no journal event makes them stale). */
  experiments: family("experiments"),
};

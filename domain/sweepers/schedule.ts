// Drives every timebox: each sweeper runs on its interval in every app instance; each takes its own
// advisory lock, so across instances one at a time does the work and the others find nothing to do.
// Each interval is set here and nowhere else.
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { sweepReminders } from "../commitments/sweep-reminders";
import { sweepDecisions } from "../decisions/sweep-decisions";
import { sweepDiagnosis } from "../diagnosis/monitor";
import { DEFAULT_PARTITION_MONTHS_AHEAD } from "../config";
import { keepJournalPartitionsAhead } from "../journal/partitions";
import { indexJournalSearch } from "../journal/search-index";
import { sweepRelay } from "../rooms/sweep";
import { sweepStalledAgents } from "../roster/stall";
import { sweepReservations } from "../reservations/sweep";
import { sweepExpiredLeases } from "../tasks/expire";
import { type PushRenderer, queuePushes } from "../webhooks/a2a-push";
import { deliverWebhooks } from "../webhooks/deliver";

export interface Sweeper {
  name: string;
  everyMs: number;
  run(db: Db, clock: Clock): Promise<unknown>;
}

/** What the composition root (instrumentation.ts) hands the sweepers from the configuration. */
export interface SweeperSettings {
  /** QUORUM_WEBHOOK_ALLOW_PRIVATE=1: webhooks may go to loopback and private addresses. */
  webhooksMayReachInward: boolean;
  /** QUORUM_PARTITION_MONTHS_AHEAD: the months past the current one whose journal partitions are made ahead. */
  partitionMonthsAhead: number;
  /** How A2A's surface words a pushed status; without it no A2A push is queued (the hub passes it: instrumentation.ts). */
  renderPush?: PushRenderer;
}

export const sweepersWith = (settings: SweeperSettings): Sweeper[] => [
  { name: "leases", everyMs: 10_000, run: sweepExpiredLeases },
  { name: "decisions", everyMs: 5_000, run: sweepDecisions },
  { name: "reminders", everyMs: 60_000, run: sweepReminders },
  // DESIGN §5: a 30-second sweep closes focus windows that are over and flushes their digests.
  { name: "relay", everyMs: 30_000, run: sweepRelay },
  { name: "reservations", everyMs: 15_000, run: sweepReservations },
  // A stall is past half a lease (15 min at the default 30): noticed within 10 s of it.
  { name: "stalls", everyMs: 10_000, run: sweepStalledAgents },
  // Webhooks go out within about a second of their commit: one indexed query of due rows per pass. A2A pushes
  // are queued first (the status of each task with a push config that changed since the last pass).
  {
    name: "webhooks",
    everyMs: 1_000,
    run: async (db, clock) => {
      if (settings.renderPush) await queuePushes(db, clock, settings.renderPush);
      return deliverWebhooks(db, clock, { allowInward: settings.webhooksMayReachInward });
    },
  },
  // The journal's search index is written after the fact (migration 0027): a second behind at most, and a
  // search indexes whatever is left before it reads.
  { name: "search", everyMs: 1_000, run: (db) => indexJournalSearch(db) },
  // The MAST monitor: a flight's findings are journalled within about two seconds of the events that show them.
  { name: "diagnosis", everyMs: 2_000, run: sweepDiagnosis },
  // DESIGN §4: the journal's monthly partitions, made months ahead; a pass that finds them all costs one catalogue read.
  { name: "partitions", everyMs: 600_000, run: (db, clock) => keepJournalPartitionsAhead(db, clock, settings.partitionMonthsAhead) },
];

/** The sweepers with the safe settings (bench and tests that start them). */
export const SWEEPERS = sweepersWith({ webhooksMayReachInward: false, partitionMonthsAhead: DEFAULT_PARTITION_MONTHS_AHEAD });

/** Starts every sweeper; a failure is logged and the next pass tries again. Returns a stop function. */
export function startSweepers(db: Db, clock: Clock, sweepers: Sweeper[] = SWEEPERS, log = console.error): () => void {
  const timers = sweepers.map((sweeper) => {
    let running = false;
    return setInterval(async () => {
      if (running) return; // a slow pass is never overlapped by the next one
      running = true;
      try {
        await sweeper.run(db, clock);
      } catch (error) {
        log(`[sweeper ${sweeper.name}]`, error);
      } finally {
        running = false;
      }
    }, sweeper.everyMs);
  });
  return () => timers.forEach(clearInterval);
}

// Appends to the journal inside the caller's transaction; each process's announcer (./announcer.ts) reads
// it from the table once it commits.
//
// What an event costs its writer, measured 2026-11-30 (issue 16; pgbench on the 2-core test machine's
// PostgreSQL 15, shared with other jobs, so ranges): the full-text GIN index (events_search_idx, fastupdate
// on) adds 0.3–1.6 ms to a one-event autocommitted insert (1.9–3.0 → 3.2–3.4 ms), 23 µs an event in bulk
// (bench bill fold, 50,000 events); fastupdate off measured slower (4.2–4.7 ms), so the index stays as it
// is. The NOTIFY trigger costs a lone writer ~20% (913 → 745 tps) but serialises commits: PostgreSQL
// takes one database-wide lock for a notifying commit and holds it through the WAL flush, so 8 writers
// fall from 6,700–7,300 to 720–1,150 tps, and NOTIFY once per statement instead of per row measured the
// same (755 tps). Migration 0023 dropped the trigger (the announcer reads the journal's tail instead); the
// bench's gain from that was smaller than the lock suggested: claim-next at 16 workers +45%, posting in
// 8 rooms +6% (bench/results/2026-11-30.md, "Writers that do not NOTIFY"; numbers in ./listen.ts).
// Migration 0027 then took the search index off the write path too: the search sweeper indexes the
// journal after the fact (./search-index.ts), and a search reads the few events not yet indexed itself.
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { EventKind } from "./kinds";
import type { EventPayloads } from "./payloads";

export interface NewEvent<K extends EventKind = EventKind> {
  kind: K;
  /** The principal that acted; null for the system's own doing (sweepers, the harness). */
  actor?: string | null;
  runId?: string | null;
  taskId?: string | null;
  turn?: number | null;
  data: EventPayloads[K];
  /** From the caller's clock, always: tests move time, and the journal must agree with them. */
  t: Date;
}

export type JournalEvent = typeof events.$inferSelect;

export async function appendEvent<K extends EventKind>(tx: Executor, event: NewEvent<K>): Promise<JournalEvent> {
  const [row] = await tx
    .insert(events)
    .values({
      kind: event.kind,
      actor: event.actor ?? null,
      runId: event.runId ?? null,
      taskId: event.taskId ?? null,
      turn: event.turn ?? null,
      data: event.data,
      t: event.t,
    })
    .returning();
  return row;
}

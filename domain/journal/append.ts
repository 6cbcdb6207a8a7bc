// Appends to the journal inside the caller's transaction; each process's announcer (./announcer.ts) reads
// it from the table once it commits.
//
// No trigger notifies (migration 0023): PostgreSQL serialises notifying commits on one database-wide lock
// held through the WAL flush, which capped concurrent writers at about one connection's commit rate.
// Nor is the search index written here (migration 0027): the search sweeper indexes the journal after the
// fact (./search-index.ts), and a search reads the few events not yet indexed itself. Figures for both:
// bench/results/notebook.md.
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

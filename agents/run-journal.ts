// The loop's journal in Postgres: each step one transaction, fenced so that only one process
// advances a run (a second resumer, or a worker thought dead, fails instead of forking the run).
import { and, eq, inArray, max, ne, sql } from "drizzle-orm";
import { events } from "../db/schema";
import type { Db, Tx } from "../db/client";
import type { Clock } from "../server/clock";
import { fail } from "../server/errors";
import { appendEvent, type JournalEvent } from "../server/journal/append";
import { foldRun, type RunState } from "../server/journal/views/resume-point";
import type { Mail } from "../server/journal/views/run-events";
import { exhaustedBudget } from "./budget";
import type { Draft, RunJournal } from "./loop";

/**
 * The agent's delivered mail for one turn, read (and, if it consumes, marked) inside the
 * transaction that journals ModelCalled with it, so mail is never lost between the two.
 */
export type Inbox = (tx: Tx, who: { agentId: string; runId: string; turn: number }) => Promise<Mail[]>;

/** Serialises writers of one run and checks that nobody else wrote since this process last read. */
async function fence(tx: Tx, state: RunState): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${state.runId!}, 0))`);
  const [row] = await tx
    .select({ last: max(events.id) })
    .from(events)
    .where(and(eq(events.runId, state.runId!), ne(events.kind, "StopRequested")));
  const last = row?.last ?? null;
  if (last !== state.lastEventId) {
    throw fail.conflict(
      "run",
      state.lastEventId === null ? "run_exists" : "run_moved_on",
      state.lastEventId === null
        ? `run ${state.runId} already exists`
        : `run ${state.runId} was advanced by another process (its journal ends at event ${last}, this process read up to ${state.lastEventId})`,
    );
  }
}

export function databaseJournal(db: Db, options: { clock: Clock; inbox?: Inbox }): RunJournal {
  async function write(state: RunState, fill: (tx: Tx) => Promise<Draft[]>): Promise<RunState> {
    const rows = await db.transaction(async (tx) => {
      await fence(tx, state);
      const written: JournalEvent[] = [];
      for (const draft of await fill(tx)) {
        written.push(
          await appendEvent(tx, {
            kind: draft.kind,
            actor: state.agentId,
            runId: state.runId,
            taskId: state.taskId,
            turn: draft.turn ?? state.turn,
            data: draft.data as Record<string, unknown>,
            t: options.clock.now(),
          }),
        );
      }
      return written;
    });
    return foldRun(rows, state);
  }
  return {
    append: (state, drafts) => write(state, async () => drafts),
    beginTurn: (state, turn, describe) =>
      write(state, async (tx) => {
        const mail = options.inbox ? await options.inbox(tx, { agentId: state.agentId!, runId: state.runId!, turn }) : [];
        return [{ kind: "ModelCalled", turn, data: describe(mail) }];
      }),
    async stopRequested(state) {
      const [row] = await db
        .select({
          requested: sql<number>`coalesce(max(${events.id}) filter (where ${events.kind} = 'StopRequested'), 0)`.mapWith(Number),
          honoured: sql<number>`coalesce(max(${events.id}) filter (where ${events.kind} = 'RunStopped'), 0)`.mapWith(Number),
        })
        .from(events)
        .where(and(eq(events.runId, state.runId!), inArray(events.kind, ["StopRequested", "RunStopped"])));
      return (row?.requested ?? 0) > (row?.honoured ?? 0);
    },
    exhaustedBudget: (state) => exhaustedBudget(db, state.config!.budgetIds),
  };
}

// The journal's monthly partitions (DESIGN §4): which exist, and the coming months made ahead of time by the
// partitions sweeper, so an event is written into its month's table from the start. Each is made by
// db/functions/quorum_journal_partition.sql, which also moves a month's rows out of the default partition
// (events whose `t` fell in no partition when they were written: a stopped sweeper, an injected clock).
import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { sqlStateOf } from "../errors";

/** A month as its first day in UTC, `YYYY-MM-01`: how partitions and archives name months. */
export function monthOf(t: Date): string {
  return `${t.toISOString().slice(0, 7)}-01`;
}

/** The month `n` months after `month` (`YYYY-MM-01`; n may be negative). */
export function addMonths(month: string, n: number): string {
  const [year, m] = month.split("-").map(Number);
  return monthOf(new Date(Date.UTC(year, m - 1 + n, 1)));
}

/** The first instant of a month, UTC. */
export const monthStart = (month: string) => new Date(`${month}T00:00:00.000Z`);

/** The partition that holds a month's events. */
export const partitionName = (month: string) => `events_${month.slice(0, 4)}_${month.slice(5, 7)}`;

/** The months that have a partition, oldest first (from the catalogue: any role may ask). */
export async function journalPartitions(db: Executor): Promise<string[]> {
  const rows = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'events'::regclass order by c.relname`);
  return [...rows].flatMap(({ name }) => {
    const match = /^events_(\d{4})_(\d{2})$/.exec(name);
    return match ? [`${match[1]}-${match[2]}-01`] : [];
  });
}

/**
 * Makes one month's partition (moving its rows out of the default), in a transaction of its own that gives
 * up after `lockTimeoutMs` waiting for the journal's locks instead of queueing writers behind it. Returns
 * what the function did: `exists`, `archived`, `created`, `moved <n>`, or `busy` when the locks were not free.
 */
export async function makeJournalPartition(db: Db, month: string, lockTimeoutMs = 2_000): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`);
      const [row] = await tx.execute<{ made: string }>(sql`select quorum_journal_partition(${month}::date) as made`);
      return row.made;
    });
  } catch (error) {
    if (sqlStateOf(error) === "55P03") return "busy";
    throw error;
  }
}

/**
 * The partitions sweeper's pass: the current month (by the clock) and `monthsAhead` after it each have their
 * partition. Returns the months it made (or filled from the default), with what was done.
 */
export async function keepJournalPartitionsAhead(db: Db, clock: Clock, monthsAhead: number): Promise<{ month: string; made: string }[]> {
  const have = new Set(await journalPartitions(db));
  const current = monthOf(clock.now());
  const done: { month: string; made: string }[] = [];
  for (let n = 0; n <= monthsAhead; n++) {
    const month = addMonths(current, n);
    if (have.has(month)) continue;
    done.push({ month, made: await makeJournalPartition(db, month) });
  }
  return done;
}

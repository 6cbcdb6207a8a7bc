// `quorum journal archive --before DATE` (DESIGN §4, "Retention"): the monthly partitions wholly before DATE
// leave the database as verifiable files. One transaction for all of them, so either every month goes or
// none does: it takes the months from new writes (a SHARE lock on each partition: writers of other months go
// on), checks that nothing still needs them (./archivable.ts) and that the bill's snapshot has folded them,
// reads every outliving fold, writes each month's JSONL.gz and reads it back against its checksum, records
// the tallies, detaches the partitions, reads the folds again — any change refuses the archive — journals
// JournalArchived and drops the detached tables. The journal's writers wait only from the detach to the
// commit (the detach needs the parent's ACCESS EXCLUSIVE lock). A refused or failed archive removes its files.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { sql } from "drizzle-orm";
import { journalArchives } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import { BILL_KINDS } from "../bill/bill-fold";
import { WINDOWS } from "../bill/series";
import { refreshBillSnapshot, snapshotPosition } from "../bill/snapshot";
import type { Clock } from "../clock";
import { fail, sqlStateOf } from "../errors";
import { appendEvent } from "../journal/append";
import { addMonths, journalPartitions, makeJournalPartition, monthOf, monthStart, partitionName } from "../journal/partitions";
import { archiveBlockers } from "./archivable";
import { ARCHIVE_COLUMNS, ARCHIVE_FORMAT, archiveFileName, removeArchiveFile, verifyArchiveFile, writeArchiveFile } from "./archive-file";
import { foldChanges, readFolds } from "./fold-check";
import { writeTallies } from "./tallies";

/**
 * One archive or restore at a time: a table lock, not an advisory one, because it must be taken before the
 * transaction's first query fixes its snapshot (a repeatable-read archive must not miss a row of its months).
 */
export const ARCHIVE_LOCK = sql`lock table journal_archives in exclusive mode`;

export interface ArchiveOptions {
  /** Months wholly before this instant are archived (its month's first day, UTC, is the cutoff). */
  before: Date;
  /** The folder the files go to. */
  out: string;
  clock: Clock;
  progress?: (line: string) => void;
  /** How long the detach may wait for the journal's lock before the archive gives up (a long transaction holds it). */
  lockTimeoutMs?: number;
}

export interface ArchivedMonth {
  month: string;
  events: number;
  file: string;
  sha256: string;
  bytes: number;
}

const PAGE = 2_000;
const label = (month: string) => month.slice(0, 7);

/** The months to archive: partitions wholly before the cutoff, and months of it still waiting in the default partition. */
async function monthsBefore(db: Db, cutoff: string): Promise<{ months: string[]; inDefault: string[] }> {
  const months = await journalPartitions(db);
  const waiting = await db.execute<{ month: string }>(sql`
    select distinct to_char(date_trunc('month', t at time zone 'UTC'), 'YYYY-MM-01') as month from events_default
    where t < ${monthStart(cutoff).toISOString()}::timestamptz`);
  const inDefault = [...waiting].map((w) => w.month).filter((m) => !months.includes(m));
  return { months: [...new Set([...months.filter((m) => m < cutoff), ...inDefault])].sort(), inDefault };
}

function refuse(reasons: string[], before: string): never {
  throw fail.conflict("journal", "not_archivable", `the journal before ${before} cannot be archived yet:\n  - ${reasons.join("\n  - ")}`, { reasons });
}

/** Writes a month's partition to its file, a page at a time by id, and reads the file back against its checksum. */
async function writeMonth(tx: Tx, month: string, out: string, progress: (line: string) => void): Promise<ArchivedMonth> {
  const part = sql.identifier(partitionName(month));
  const [shape] = await tx.execute<{ n: number; first: number | null; last: number | null }>(
    sql`select count(*)::int as n, min(id)::float8 as first, max(id)::float8 as last from ${part}`,
  );
  const header = {
    quorumJournalArchive: ARCHIVE_FORMAT,
    month,
    from: monthStart(month).toISOString(),
    to: monthStart(addMonths(month, 1)).toISOString(),
    events: shape.n,
    firstId: shape.first,
    lastId: shape.last,
    columns: ARCHIVE_COLUMNS,
    writtenAt: new Date().toISOString(),
  } as const;
  let written = 0;
  async function* pages(): AsyncGenerator<string[]> {
    let after = 0;
    for (;;) {
      const rows = await tx.execute<{ id: number; line: string }>(
        sql`select id::float8 as id, row_to_json(e)::text as line from ${part} e where id > ${after} order by id limit ${PAGE}`,
      );
      if (rows.length === 0) return;
      written += rows.length;
      progress(`${label(month)}: ${written.toLocaleString("en")} of ${shape.n.toLocaleString("en")} events written`);
      yield [...rows].map((r) => r.line);
      after = rows[rows.length - 1].id;
    }
  }
  const file = await writeArchiveFile(out, header, pages());
  try {
    const verified = await verifyArchiveFile(file.file);
    if (verified.events !== shape.n || verified.sha256 !== file.sha256) throw new Error(`${file.file} read back ${verified.events} events, not ${shape.n}`);
  } catch (error) {
    removeArchiveFile(file.file);
    throw error;
  }
  progress(`${label(month)}: ${archiveFileName(month)} verified (sha256 ${file.sha256.slice(0, 12)}…)`);
  return { month, events: shape.n, ...file };
}

/** Why the bill's snapshot cannot let these months go yet (it has not folded all their bill events), or null. */
async function unfoldedByTheBill(tx: Tx, months: string[]): Promise<string | null> {
  const at = await snapshotPosition(tx);
  for (const month of months) {
    const kinds = sql.join(
      BILL_KINDS.map((k) => sql`${k}`),
      sql`, `,
    );
    const [unfolded] = await tx.execute<{ n: number }>(sql`
      select count(*)::int as n from ${sql.identifier(partitionName(month))}
      where kind in (${kinds}) and (tx_id, id) > (${String(at.throughTx)}::xid8, ${at.throughId}::bigint)`);
    if (unfolded.n > 0) return `the bill's snapshot has not folded ${unfolded.n} events of ${label(month)} yet (a transaction still in flight): try again in a moment`;
  }
  return null;
}

/** The month's row in journal_archives, its tallies, and its search rows gone: all before its partition is detached. */
async function recordArchivedMonth(tx: Tx, file: ArchivedMonth, at: Date): Promise<void> {
  const part = sql.identifier(partitionName(file.month));
  const [shape] = await tx.execute<{ first: number | null; last: number | null }>(sql`select min(id)::float8 as first, max(id)::float8 as last from ${part}`);
  await tx.insert(journalArchives).values({
    month: file.month,
    startsAt: monthStart(file.month),
    endsAt: monthStart(addMonths(file.month, 1)),
    events: file.events,
    firstId: shape.first,
    lastId: shape.last,
    file: resolve(file.file),
    sha256: file.sha256,
    archivedAt: at,
  });
  await writeTallies(tx, file.month);
  await tx.execute(sql`delete from event_search where event_id in (select id from ${part})`);
}

export async function archiveJournal(db: Db, options: ArchiveOptions): Promise<ArchivedMonth[]> {
  const progress = options.progress ?? (() => {});
  const cutoff = monthOf(options.before);
  const current = monthOf(options.clock.now());
  if (cutoff > current) {
    throw fail.invalid(
      "journal",
      `the current month (${label(current)}) and later ones are never archived: --before may be at most ${current} (it archives every month before it)`,
    );
  }
  // The Bill's longest chart reads its BudgetExhausted markers from the journal: what it shows stays.
  const charted = new Date(options.clock.now().getTime() - Math.max(...Object.values(WINDOWS)) * 1000);
  if (monthStart(cutoff) > charted) {
    throw fail.invalid(
      "journal",
      `the Bill's charts still show events back to ${charted.toISOString().slice(0, 10)}: archive before ${monthOf(charted)} at the latest, or wait a few days`,
    );
  }
  const { months, inDefault } = await monthsBefore(db, cutoff);
  if (months.length === 0) return [];
  const archived = await db.select({ month: journalArchives.month }).from(journalArchives);
  const again = months.filter((m) => archived.some((a) => a.month === m));
  if (again.length) {
    refuse([`events dated in ${again.map(label).join(", ")} were written after that month was archived: restore it (quorum journal restore), then archive again`], cutoff);
  }
  const early = await archiveBlockers(db, monthStart(cutoff));
  if (early.length) refuse(early, cutoff);
  progress(`archiving ${months.map(label).join(", ")} to ${resolve(options.out)}`);
  // The bill's snapshot must have folded every event that leaves; folding it first keeps that check cheap.
  await refreshBillSnapshot(db);
  for (const month of inDefault) progress(`${label(month)}: ${await makeJournalPartition(db, month, options.lockTimeoutMs ?? 10_000)} (out of the default partition)`);
  mkdirSync(options.out, { recursive: true, mode: 0o700 });
  const files: ArchivedMonth[] = [];
  let held = 0;
  try {
    await db.transaction(
      async (tx) => {
        // Locks first, before any query takes the snapshot: no event of these months can commit unseen.
        await tx.execute(ARCHIVE_LOCK);
        for (const month of months) await tx.execute(sql`lock table ${sql.identifier(partitionName(month))} in share mode`);
        await tx.execute(sql`select set_config('TimeZone', 'UTC', true)`);
        const blockers = await archiveBlockers(tx, monthStart(cutoff));
        if (blockers.length) refuse(blockers, cutoff);
        const unfolded = await unfoldedByTheBill(tx, months);
        if (unfolded) refuse([unfolded], cutoff);
        const before = await readFolds(tx);
        for (const month of months) {
          const file = await writeMonth(tx, month, options.out, progress);
          files.push(file);
          await recordArchivedMonth(tx, file, options.clock.now());
        }
        // From here to the commit the journal's readers and writers wait: keep it short.
        await tx.execute(sql`select set_config('lock_timeout', ${`${options.lockTimeoutMs ?? 10_000}ms`}, true)`);
        held = performance.now();
        for (const month of months) await tx.execute(sql`alter table events detach partition ${sql.identifier(partitionName(month))}`);
        const changes = await foldChanges(tx, before, await readFolds(tx, Object.keys(before.streaks)));
        if (changes.length) refuse(changes, cutoff);
        for (const file of files) {
          await appendEvent(tx, {
            kind: "JournalArchived",
            t: options.clock.now(),
            data: {
              month: file.month,
              from: monthStart(file.month).toISOString(),
              to: monthStart(addMonths(file.month, 1)).toISOString(),
              events: file.events,
              file: archiveFileName(file.month),
              sha256: file.sha256,
            },
          });
          await tx.execute(sql`drop table ${sql.identifier(partitionName(file.month))}`);
        }
      },
      { isolationLevel: "repeatable read" },
    );
  } catch (error) {
    for (const file of files) removeArchiveFile(file.file);
    if (sqlStateOf(error) === "55P03")
      throw fail.conflict("journal", "journal_busy", "the journal stayed locked by another transaction for too long: nothing was archived, try again", {}, undefined, error);
    throw error;
  }
  progress(`the journal was held for ${Math.round(performance.now() - held)} ms while the months were detached`);
  progress(`archived ${files.length} month${files.length === 1 ? "" : "s"}: ${files.reduce((n, f) => n + f.events, 0).toLocaleString("en")} events`);
  return files;
}

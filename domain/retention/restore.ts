// `quorum journal restore FILE` (DESIGN §4, "Retention"): an archived month comes back into the journal,
// bit for bit. Only the file the journal recorded for that month is taken (its SHA-256 must match, and the
// checksum and every line must agree with the file's header); its partition is made again by the one
// function that makes partitions (attached, every index built, only its owner's rights), filled with the
// triggers of the partition off (the webhook outbox must not announce old events again, and the ids are
// checked unused), and the month's tallies leave with its journal_archives row: each fold then reads the
// month from the journal again, once. The search index gets the month's documents back.
import { sql } from "drizzle-orm";
import { eq } from "drizzle-orm";
import { journalArchives } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { partitionName } from "../journal/partitions";
import { ARCHIVE_LOCK } from "./archive";
import { archiveFileName, verifyArchiveFile } from "./archive-file";

export interface RestoredMonth {
  month: string;
  events: number;
  /** Events of the month written while it was archived (they waited in the default partition), now beside it. */
  alsoMoved: number;
  sha256: string;
}

export async function restoreJournal(db: Db, file: string, clock: Clock, progress: (line: string) => void = () => {}): Promise<RestoredMonth> {
  const checked = await verifyArchiveFile(file);
  const label = checked.month.slice(0, 7);
  progress(`${file}: checksum and ${checked.events.toLocaleString("en")} events verified (${label})`);
  return db.transaction(async (tx) => {
    await tx.execute(ARCHIVE_LOCK);
    const [record] = await tx.select().from(journalArchives).where(eq(journalArchives.month, checked.month));
    if (!record) throw fail.conflict("journal", "not_archived", `${label} is not archived in this journal: there is nothing to restore (or the file comes from another database)`);
    if (record.sha256 !== checked.sha256) {
      throw fail.conflict("journal", "not_this_archive", `this is not the file archived for ${label}: its SHA-256 is ${checked.sha256}, the journal recorded ${record.sha256}`);
    }
    await tx.delete(journalArchives).where(eq(journalArchives.month, checked.month));
    const [made] = await tx.execute<{ made: string }>(sql`select quorum_journal_partition(${checked.month}::date) as made`);
    const alsoMoved = made.made.startsWith("moved ") ? Number(made.made.slice(6)) : 0;
    const part = sql.identifier(partitionName(checked.month));
    await tx.execute(sql`alter table ${part} disable trigger user`);
    let loaded = 0;
    await verifyArchiveFile(file, async (lines) => {
      const batch = `[${lines.join(",")}]`;
      const taken = await tx.execute<{ id: string }>(sql`
        select e.id::text as id from events e where e.id in (select (r->>'id')::bigint from json_array_elements(${batch}::json) as r) limit 5`);
      if (taken.length)
        throw fail.conflict("journal", "ids_taken", `events ${[...taken].map((r) => r.id).join(", ")} of ${label} are already in the journal: nothing was restored`);
      await tx.execute(sql`insert into ${part} select * from json_populate_recordset(null::events, ${batch}::json)`);
      loaded += lines.length;
      progress(`${label}: ${loaded.toLocaleString("en")} of ${checked.events.toLocaleString("en")} events restored`);
    });
    await tx.execute(sql`alter table ${part} enable trigger user`);
    // The search index's watermark is past these events: their documents are written here.
    await tx.execute(sql`
      insert into event_search (event_id, document)
      select id, quorum_event_document(data) from ${part} where quorum_event_searchable(kind)
      on conflict (event_id) do nothing`);
    await appendEvent(tx, {
      kind: "JournalRestored",
      t: clock.now(),
      data: { month: checked.month, from: checked.from, to: checked.to, events: checked.events, file: archiveFileName(checked.month), sha256: checked.sha256 },
    });
    progress(`${label}: restored (${checked.events.toLocaleString("en")} events${alsoMoved ? `, and ${alsoMoved} written since beside them` : ""})`);
    return { month: checked.month, events: checked.events, alsoMoved, sha256: checked.sha256 };
  });
}

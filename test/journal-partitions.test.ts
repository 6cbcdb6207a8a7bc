// The journal partitioned by month (DESIGN §4): migration 0037 converts a journal that already holds months
// of events in place — every row, id, transaction and grant kept, no webhook fired twice — and the
// partitions sweeper makes the coming months ahead, taking a month's rows out of the default partition
// when it finds some there.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { getDb, withDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";
import { manualClock } from "../domain/clock";
import { addMonths, journalPartitions, keepJournalPartitionsAhead, monthOf } from "../domain/journal/partitions";

const admin = postgres(inject("adminUrl"), { max: 1, onnotice: () => {} });
const scratch = `quorum_partitioning_${process.pid}`;
const reader = `quorum_partitioning_reader_${process.pid}`;

afterAll(async () => {
  await admin.unsafe(`drop database if exists ${scratch} with (force)`);
  await admin.unsafe(`drop role if exists ${reader}`);
  await admin.end();
});

/** Applies every migration before the one that partitions the journal: the schema a user's journal had. */
async function migrateToBeforePartitioning(url: string): Promise<void> {
  const source = fileURLToPath(new URL("../db/migrations", import.meta.url));
  const folder = mkdtempSync(join(tmpdir(), "quorum-migrations-"));
  cpSync(source, folder, { recursive: true });
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith("journal-partitioned-by-month"));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify(journal));
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end();
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("the journal partitioned by month", () => {
  it("converts a journal holding months of events in place: rows, ids, transactions, grants and triggers kept", { timeout: 120_000 }, async () => {
    await admin.unsafe(`drop database if exists ${scratch} with (force)`);
    await admin.unsafe(`create database ${scratch}`);
    await admin.unsafe(`drop role if exists ${reader}`);
    await admin.unsafe(`create role ${reader}`);
    const url = withDatabase(inject("adminUrl"), scratch);
    await migrateToBeforePartitioning(url);
    const db = postgres(url, { max: 1, onnotice: () => {} });
    try {
      // A journal as a user's .quorum/pg holds it: months of events, some that paged a webhook, in several transactions.
      const [human] = await db`insert into principals (kind, name) values ('human', 'migration-tester') returning id`;
      await db`insert into webhook_endpoints (url, events, secret, created_by, created_at) values ('https://example.test/hook', array['lease.expired'], 'whsec_x', ${human.id}, now())`;
      for (let month = 0; month < 5; month++) {
        await db.begin(async (tx) => {
          await tx`insert into events (kind, t, data)
            select case when g % 50 = 0 then 'LeaseExpired' else 'TaskCreated' end, ${`2026-0${month + 3}-02T00:00:00Z`}::timestamptz + g * interval '1 hour',
                   jsonb_build_object('number', g, 'ownerId', null, 'fence', 1, 'outputCount', 0, 'title', 'month ' || ${month} || ' event ' || g)
            from generate_series(1, 400) g`;
        });
      }
      await db.unsafe(`grant select on events to ${reader}`);
      // An index another migration made unique over the whole journal (the MAST monitor's once-per-key, say).
      await db.unsafe(`create unique index events_once_per_key_idx on events ((data->>'title')) where kind = 'TaskCreated'`);
      const rows = async () => (await db`select row_to_json(e)::text as line from events e order by id`).map((r) => r.line as string);
      const before = await rows();
      const deliveries = (await db`select count(*)::int as n from webhook_deliveries`)[0].n;
      expect(before).toHaveLength(2000);
      expect(deliveries).toBe(40);

      await runMigrations(url);

      const [table] = await db`select relkind from pg_class where oid = 'events'::regclass`;
      expect(table.relkind).toBe("p");
      expect(await rows()).toEqual(before);
      expect((await db`select count(*)::int as n from webhook_deliveries`)[0].n).toBe(deliveries);
      // A partition per month that has events, the current month and three ahead, and the default.
      const months = await journalPartitions(drizzle(db));
      const current = monthOf(new Date());
      for (const month of ["2026-03-01", "2026-04-01", "2026-05-01", "2026-06-01", "2026-07-01", current, addMonths(current, 1)]) expect(months).toContain(month);
      expect((await db`select count(*)::int as n from events_default`)[0].n).toBe(0);
      const placed = await db`select tableoid::regclass::text as part, count(*)::int as n from events group by 1 order by 1`;
      expect(placed.filter((p) => p.part.startsWith("events_2026_0")).map((p) => p.n)).toEqual([400, 400, 400, 400, 400]);
      // The sequence goes on past the old ids; the guards and the outbox are the journal's, on every partition.
      const [added] = await db`insert into events (kind, t, data) values ('LeaseExpired', now(), '{"number": 1, "ownerId": null, "fence": 1, "outputCount": 0}') returning id`;
      expect(Number(added.id)).toBeGreaterThan(2000);
      expect((await db`select count(*)::int as n from webhook_deliveries`)[0].n).toBe(deliveries + 1);
      await expect(db`update events set kind = 'Rewritten' where id = 1`).rejects.toThrow(/append-only/);
      await expect(db`delete from events_2026_03`).rejects.toThrow(/append-only/);
      await expect(db`truncate events`).rejects.toThrow(/append-only/);
      const grants = await db`select privilege_type from information_schema.role_table_grants where table_name = 'events' and grantee = ${reader}`;
      expect(grants.map((g) => g.privilege_type)).toEqual(["SELECT"]);
      // It cannot stay unique across months: it is there, on every partition, as a plain index.
      const [kept] = await db`select indisunique from pg_index where indexrelid = 'events_once_per_key_idx'::regclass`;
      expect(kept.indisunique).toBe(false);
      const invalid = await db`select count(*)::int as n from pg_index where not indisvalid`;
      expect(invalid[0].n).toBe(0);
      const named = await db`select indexrelid::regclass::text as name from pg_index where indrelid = 'events_2026_04'::regclass order by 1`;
      expect(named.map((n) => n.name)).toContain("events_2026_04_settled_idx");
      expect(named.map((n) => n.name)).toContain("events_2026_04_pkey");
    } finally {
      await db.end();
    }
  });

  it("makes the coming months ahead, moving a month's rows out of the default partition when some wait there", async () => {
    const db = getDb();
    const clock = manualClock(new Date("2031-05-20T12:00:00Z"));
    // An event written while no partition held its month waits in the default.
    const [waiting] = await db.execute<{ id: string; tx_id: string }>(
      sql`insert into events (kind, t, data) values ('TaskCreated', '2031-06-02T00:00:00Z', '{"title": "early"}') returning id::text, tx_id::text`,
    );
    const [waits] = await db.execute<{ part: string }>(sql`select tableoid::regclass::text as part from events where id = ${waiting.id}::bigint`);
    expect(waits.part).toBe("events_default");
    const made = await keepJournalPartitionsAhead(db, clock, 3);
    expect(made).toEqual([
      { month: "2031-05-01", made: "created" },
      { month: "2031-06-01", made: "moved 1" },
      { month: "2031-07-01", made: "created" },
      { month: "2031-08-01", made: "created" },
    ]);
    const [moved] = await db.execute<{ part: string; id: string; tx_id: string }>(
      sql`select tableoid::regclass::text as part, id::text, tx_id::text from events where id = ${waiting.id}::bigint`,
    );
    expect(moved).toEqual({ part: "events_2031_06", id: waiting.id, tx_id: waiting.tx_id });
    // A second pass finds them all.
    expect(await keepJournalPartitionsAhead(db, clock, 3)).toEqual([]);
  });
});

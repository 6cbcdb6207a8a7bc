// Retention (DESIGN §4): a month of the journal leaves for a verified JSONL.gz file and comes back bit for
// bit, every fold that outlives it reads the same while it is away and after, and what still needs a month
// keeps it in the database (the archive says which). Under load: ./retention-under-load.test.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
const archivesRoute = apiHandler("GET", "/api/journal/archives");
import { resetBillSnapshot } from "../domain/bill/snapshot";
import { manualClock } from "../domain/clock";
import { QuorumError } from "../domain/errors";
import { listJournal } from "../domain/journal/list";
import { journalPartitions } from "../domain/journal/partitions";
import { requireWorkedTask } from "../domain/memory/lesson-task";
import { archiveJournal } from "../domain/retention/archive";
import { verifyArchiveFile } from "../domain/retention/archive-file";
import { restoreJournal } from "../domain/retention/restore";
import { loadRunTimeline } from "../domain/runs/run-journal";
import { reopenTask } from "../domain/tasks/reopen";
import { reviewTask } from "../domain/tasks/review";
import { archiveFolder, foldsOf, leadAndCoder, monthRows, workedTask } from "./fixtures/retention";
import { call } from "./helpers";
import { apiHandler } from "./api";

describe("retention", () => {
  it("archives a month to a verified file, every fold unchanged, and restores it bit for bit", async () => {
    const db = getDb();
    const clock = manualClock(new Date("2026-03-10T09:00:00Z"));
    const { lead, coder, budget } = await leadAndCoder(clock);
    const march = await workedTask(lead, coder, budget.id, clock, { reject: true });
    clock.set(new Date("2026-03-20T09:00:00Z"));
    const marchToo = await workedTask(lead, coder, budget.id, clock);
    clock.set(new Date("2026-06-10T09:00:00Z"));
    const june = await workedTask(lead, coder, budget.id, clock);
    const runIds = [march.runId, marchToo.runId, june.runId];

    const before = await foldsOf([budget.id], [coder.id], runIds);
    expect(before.reviews[coder.id]).toEqual({ accepted: 3, reviewed: 4 });
    const marchEvents = await monthRows("2026-03-01", "2026-04-01");
    expect(marchEvents.length).toBeGreaterThan(30);

    const dir = archiveFolder();
    const lines: string[] = [];
    const archived = await archiveJournal(db, { before: new Date("2026-05-01T00:00:00Z"), out: dir, clock, progress: (l) => lines.push(l) });
    expect(archived.map((m) => [m.month, m.events])).toEqual([["2026-03-01", marchEvents.length]]);
    expect(lines.join("\n")).toMatch(/2026-03: events-2026-03\.jsonl\.gz verified/);
    const file = archived[0].file;
    expect(readFileSync(`${file}.sha256`, "utf8")).toBe(`${archived[0].sha256}  events-2026-03.jsonl.gz\n`);
    expect((await verifyArchiveFile(file)).events).toBe(marchEvents.length);

    // The month is gone from the database; its partition with it.
    expect(await monthRows("2026-03-01", "2026-04-01")).toEqual([]);
    expect(await journalPartitions(db)).not.toContain("2026-03-01");
    // Every fold that outlives it reads the same; the journal says what happened, and the route lists the month.
    const during = await foldsOf([budget.id], [coder.id], runIds);
    expect(during.bill).toEqual(before.bill);
    expect(during.budgets).toEqual(before.budgets);
    expect(during.reviews).toEqual(before.reviews);
    expect(during.resume[2]).toEqual(before.resume[2]);
    const [note] = (await listJournal(db, { kind: "JournalArchived" })).items;
    expect(note.data).toMatchObject({ month: "2026-03-01", events: marchEvents.length, file: "events-2026-03.jsonl.gz", sha256: archived[0].sha256 });
    const listed = await call(archivesRoute, "/api/journal/archives", { cookie: lead.cookie });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ month: "2026-03-01", from: "2026-03-01T00:00:00.000Z", to: "2026-04-01T00:00:00.000Z", events: marchEvents.length, file }),
    ]);
    const asAgent = await call(archivesRoute, "/api/journal/archives", { key: coder.key });
    expect(asAgent.body.items[0].file).toBeNull();
    // An archived run is named as such; rules that read an archived task's history keep working, or say why they cannot.
    await expect(loadRunTimeline(db, march.runId, lead)).rejects.toThrow(`run ${march.runId}'s events are archived with 2026-03`);
    await expect(requireWorkedTask(db, coder, march.task.id)).resolves.toBeUndefined();
    await expect(reopenTask(db, lead, march.task.id, { evidence: "it broke again" }, clock)).rejects.toMatchObject({ code: "archived" });
    await expect(resetBillSnapshot(db)).rejects.toThrow(/archived months/);

    const restored = await restoreJournal(db, file, clock);
    expect(restored).toMatchObject({ month: "2026-03-01", events: marchEvents.length, alsoMoved: 0 });
    expect(await monthRows("2026-03-01", "2026-04-01")).toEqual(marchEvents);
    expect(await foldsOf([budget.id], [coder.id], runIds)).toEqual(before);
    expect((await call(archivesRoute, "/api/journal/archives", { cookie: lead.cookie })).body.items).toEqual([]);
    // Every index of the journal is valid again, and the restored partition is its owner's alone.
    const invalid = await db.execute(sql`
      select c.relname from pg_index i join pg_class c on c.oid = i.indexrelid join pg_inherits h on h.inhrelid = i.indrelid
      where h.inhparent = 'events'::regclass and not i.indisvalid`);
    expect([...invalid]).toEqual([]);
    const parentIndexes = await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_index where indrelid = 'events'::regclass and indisvalid`);
    const partitionIndexes = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_index i join pg_class c on c.oid = i.indrelid where c.relname = 'events_2026_03' and i.indisvalid`,
    );
    expect(partitionIndexes[0].n).toBe(parentIndexes[0].n);
  });

  it("refuses what a fold still needs, the current month, a changed file and a month not archived", async () => {
    const db = getDb();
    const clock = manualClock(new Date("2026-02-10T09:00:00Z"));
    const { lead, coder, budget } = await leadAndCoder(clock);
    const open = await workedTask(lead, coder, budget.id, clock, { finish: false });
    clock.set(new Date("2026-04-10T09:00:00Z"));
    const dir = archiveFolder();
    const refusal = await archiveJournal(db, { before: new Date("2026-03-01T00:00:00Z"), out: dir, clock }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(QuorumError);
    expect((refusal as QuorumError).code).toBe("not_archivable");
    expect((refusal as QuorumError).message).toContain(`task #${open.task.number}`);
    expect((refusal as QuorumError).message).toContain("is in review");
    expect(await monthRows("2026-02-01", "2026-03-01")).not.toEqual([]);
    await expect(archiveJournal(db, { before: new Date("2026-05-01T00:00:00Z"), out: dir, clock })).rejects.toThrow(/never archived/);

    // Finished, but the task gets an event after the cutoff: its history would be cut in two.
    await reviewTask(db, lead, open.task.id, { verdict: "accept" }, clock);
    const straddle = await archiveJournal(db, { before: new Date("2026-03-01T00:00:00Z"), out: dir, clock }).catch((e: unknown) => e);
    expect((straddle as QuorumError).message).toMatch(new RegExp(`task #${open.task.number} .* has events on both sides of 2026-03-01`));

    clock.set(new Date("2026-05-15T09:00:00Z"));
    const done = await archiveJournal(db, { before: new Date("2026-05-01T00:00:00Z"), out: dir, clock });
    expect(done.map((m) => m.month)).toEqual(expect.arrayContaining(["2026-02-01", "2026-04-01"]));
    const file = done.find((m) => m.month === "2026-02-01")!.file;
    // A byte changed: the checksum says so, and nothing is restored.
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 0xff;
    writeFileSync(file, bytes);
    await expect(verifyArchiveFile(file)).rejects.toThrow(/it changed since it was written/);
    await expect(restoreJournal(db, file, clock)).rejects.toThrow(/it changed since it was written/);
    expect(await monthRows("2026-02-01", "2026-03-01")).toEqual([]);
  });
});

// Retention (DESIGN §4): a month of the journal leaves for a verified JSONL.gz file and comes back bit for
// bit, every fold that outlives it reads the same before, during and after, and what still needs a month
// keeps it in the database (the archive says which).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { scriptedClient } from "../agents/model/scripted";
import { startRun } from "../agents/run";
import { GET as archivesRoute } from "../app/api/journal/archives/route";
import { readBill } from "../server/bill/read-bill";
import { resetBillSnapshot } from "../server/bill/snapshot";
import { createBudget } from "../server/budgets/create";
import { budgetLines } from "../server/budgets/lines";
import { manualClock } from "../server/clock";
import { QuorumError } from "../server/errors";
import { listJournal } from "../server/journal/list";
import { loadRunEvents } from "../server/journal/load";
import { journalPartitions } from "../server/journal/partitions";
import { requireWorkedTask } from "../server/memory/lesson-task";
import { archiveJournal } from "../server/retention/archive";
import { verifyArchiveFile } from "../server/retention/archive-file";
import { restoreJournal } from "../server/retention/restore";
import { reviewRecords } from "../server/tasks/review-record";
import { resumePoint } from "../server/runs/resume-point";
import { claimTask } from "../server/tasks/claim";
import { createTask } from "../server/tasks/create";
import { reopenTask } from "../server/tasks/reopen";
import { reviewTask } from "../server/tasks/review";
import { submitTask } from "../server/tasks/submit";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "./fixtures/runtime";
import { call, makeAgent, makeHuman } from "./helpers";
import type { Principal } from "../server/principal";

const PRICES = { prices: {}, currency: "USD", problem: null };
const out = () => mkdtempSync(join(tmpdir(), "quorum-archive-"));

/** Every event of a month, as the journal holds it, in id order: what a restore must bring back exactly. */
async function monthRows(from: string, to: string): Promise<string[]> {
  const rows = await getDb().execute<{ line: string }>(
    sql`select row_to_json(e)::text as line from events e where t >= ${from}::timestamptz and t < ${to}::timestamptz order by id`,
  );
  return [...rows].map((r) => r.line);
}

/** A task filed, claimed, worked by a finished scripted run on `budgetId`, submitted and reviewed (rejected first when asked). */
async function workedTask(lead: Principal, coder: Principal, budgetId: string, clock: ReturnType<typeof manualClock>, options: { reject?: boolean; finish?: boolean } = {}) {
  const db = getDb();
  const task = await createTask(db, lead, { title: `task ${Math.random()}`, acceptanceCriteria: "it works" }, clock);
  await claimTask(db, coder, task.id, clock);
  const { runId } = await startRun(db, {
    agent: coder,
    client: scriptedClient(FIX_SCRIPT),
    tools: scratchTools({ quick: true }),
    root: makeScratchRepo(),
    task: FIX_TASK,
    system: CODER_SYSTEM,
    taskId: task.id,
    budgetId,
    clock,
  });
  const fence = (await db.execute<{ fence: number }>(sql`select fence from tasks where id = ${task.id}`))[0].fence;
  await submitTask(db, coder, task.id, { fence, summary: "fixed", evidence: `tests pass ${Math.random()}` }, clock);
  if (options.reject) {
    await reviewTask(db, lead, task.id, { verdict: "reject", reason: "not yet" }, clock);
    await submitTask(db, coder, task.id, { fence, summary: "fixed again", evidence: `tests pass ${Math.random()}` }, clock);
  }
  if (options.finish !== false) await reviewTask(db, lead, task.id, { verdict: "accept", reason: null }, clock);
  return { task, runId };
}

async function folds(budgetIds: string[], principals: string[], runIds: string[]) {
  const db = getDb();
  const bill = await readBill(db, PRICES);
  return {
    bill: { total: bill.total, agents: bill.agents, models: bill.models, budgets: bill.budgets, team: bill.team },
    budgets: Object.fromEntries(await budgetLines(db, budgetIds)),
    reviews: Object.fromEntries(await reviewRecords(db, principals)),
    resume: await Promise.all(runIds.map(async (id) => resumePoint(await loadRunEvents(db, id)))),
  };
}

describe("retention", () => {
  it("archives a month to a verified file, every fold unchanged, and restores it bit for bit", async () => {
    const db = getDb();
    const clock = manualClock(new Date("2026-03-10T09:00:00Z"));
    const lead = await makeHuman();
    const coder = await makeAgent(undefined, "coder");
    const budget = await createBudget(db, null, { ownerId: coder.id, allowance: 1_000_000, label: "coder's" }, clock);
    const march = await workedTask(lead, coder, budget.id, clock, { reject: true });
    clock.set(new Date("2026-03-20T09:00:00Z"));
    const marchToo = await workedTask(lead, coder, budget.id, clock);
    clock.set(new Date("2026-06-10T09:00:00Z"));
    const june = await workedTask(lead, coder, budget.id, clock);
    const runIds = [march.runId, marchToo.runId, june.runId];

    const before = await folds([budget.id], [coder.id], runIds);
    expect(before.reviews[coder.id]).toEqual({ accepted: 3, reviewed: 4 });
    const marchEvents = await monthRows("2026-03-01", "2026-04-01");
    expect(marchEvents.length).toBeGreaterThan(30);

    const dir = out();
    const lines: string[] = [];
    const archived = await archiveJournal(db, { before: new Date("2026-05-01T00:00:00Z"), out: dir, clock, progress: (l) => lines.push(l) });
    expect(archived.map((m) => [m.month, m.events])).toEqual([["2026-03-01", marchEvents.length]]);
    expect(lines.join("\n")).toMatch(/2026-03: events-2026-03\.jsonl\.gz verified/);
    const file = archived[0].file;
    expect(readFileSync(`${file}.sha256`, "utf8")).toBe(`${archived[0].sha256}  events-2026-03.jsonl.gz\n`);
    expect((await verifyArchiveFile(file)).events).toBe(marchEvents.length);

    // The month is gone from the database; its partition with it.
    expect(await monthRows("2026-03-01", "2026-04-01")).toEqual([]);
    expect((await journalPartitions(db)).months).not.toContain("2026-03-01");
    // Every fold that outlives it reads the same; the journal says what happened, and the route lists the month.
    const during = await folds([budget.id], [coder.id], runIds);
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
    // Rules that read an archived task's history keep working, or say why they cannot.
    await expect(requireWorkedTask(db, coder, march.task.id)).resolves.toBeUndefined();
    await expect(reopenTask(db, lead, march.task.id, { evidence: "it broke again" }, clock)).rejects.toMatchObject({ code: "archived" });
    await expect(resetBillSnapshot(db)).rejects.toThrow(/archived months/);

    const restored = await restoreJournal(db, file, clock);
    expect(restored).toMatchObject({ month: "2026-03-01", events: marchEvents.length, alsoMoved: 0 });
    expect(await monthRows("2026-03-01", "2026-04-01")).toEqual(marchEvents);
    expect(await folds([budget.id], [coder.id], runIds)).toEqual(before);
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
    const lead = await makeHuman();
    const coder = await makeAgent(undefined, "coder");
    const budget = await createBudget(db, null, { ownerId: coder.id, allowance: 1_000_000, label: "coder's" }, clock);
    const open = await workedTask(lead, coder, budget.id, clock, { finish: false });
    clock.set(new Date("2026-04-10T09:00:00Z"));
    const dir = out();
    const refusal = await archiveJournal(db, { before: new Date("2026-03-01T00:00:00Z"), out: dir, clock }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(QuorumError);
    expect((refusal as QuorumError).code).toBe("not_archivable");
    expect((refusal as QuorumError).message).toContain(`task #${open.task.number}`);
    expect((refusal as QuorumError).message).toContain("is in review");
    expect(await monthRows("2026-02-01", "2026-03-01")).not.toEqual([]);
    await expect(archiveJournal(db, { before: new Date("2026-05-01T00:00:00Z"), out: dir, clock })).rejects.toThrow(/never archived/);

    // Finished, but the task gets an event after the cutoff: its history would be cut in two.
    await reviewTask(db, lead, open.task.id, { verdict: "accept", reason: null }, clock);
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

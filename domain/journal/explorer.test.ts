// The explorer's reads: cursor pages that return every event exactly once while others append, and a
// full-text search over message bodies and payloads that finds what it should and nothing else.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { getDb } from "../../db/client";
const journalRoute = apiHandler("GET", "/api/journal");
import { call, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { postMessage } from "../rooms/post-message";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { listJournal, type JournalQuery } from "./list";
import { readSearchWatermark, searchIndexed, searchTail } from "./search-index";
import { rawClientOf } from "../raw-sql";
import { apiHandler } from "../../test/api";

const actor = randomUUID();
const mark = (n: number) => ({ kind: "OutputAppended" as const, actor, data: { n } });

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function readAll(query: JournalQuery, cursor: "after" | "before", start?: number): Promise<{ ids: number[]; last?: number }> {
  const ids: number[] = [];
  let at = start;
  for (;;) {
    const page = await listJournal(getDb(), { ...query, limit: 7, ...(at !== undefined ? { [cursor]: at } : {}) });
    ids.push(...page.items.map((e) => e.id));
    if (page.items.length) at = page.items[page.items.length - 1].id;
    if (!page.next) return { ids, last: at };
  }
}

describe("journal pagination", () => {
  it("ascending (after=) returns every event exactly once while transactions commit out of id order", async () => {
    const db = getDb();
    let n = 0;
    const appended: number[] = [];
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; i < 25; i++) {
        // Some transactions take their id early and commit late, so smaller ids commit after larger ones.
        const rows = await db.transaction(async (tx) => {
          if ((i + w) % 3 === 0) await tx.execute(sql`select pg_current_xact_id()`);
          const out = [];
          for (let k = 0; k < 1 + ((i * 7 + w) % 3); k++) out.push(await appendLooseEvent(tx, mark(n++)));
          if ((i + w) % 4 === 0) await new Promise((r) => setTimeout(r, 15));
          return out;
        });
        appended.push(...rows.map((r) => r.id));
      }
    });
    // The deterministic case: A holds a transaction id, B appends a smaller id and commits after A.
    const [aHasXid, releaseA, bAppended, releaseB] = [gate(), gate(), gate(), gate()];
    const a = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`);
      aHasXid.open();
      await releaseA.promise;
      return appendLooseEvent(tx, mark(-1));
    });
    await aHasXid.promise;
    const b = db.transaction(async (tx) => {
      const row = await appendLooseEvent(tx, mark(-2));
      bAppended.open();
      await releaseB.promise;
      return row;
    });
    await bAppended.promise;
    releaseA.open();
    const rowA = await a;

    const seen: number[] = [];
    let cursor = 0;
    const drain = async () => {
      const { ids, last } = await readAll({ actor }, "after", cursor);
      seen.push(...ids);
      cursor = last ?? cursor;
    };
    let writing = true;
    const done = Promise.all(writers).then(() => (writing = false));
    while (writing) await drain();
    await done;
    await drain();
    expect(seen).toContain(rowA.id);
    releaseB.open();
    const rowB = await b;
    expect(rowB.id).toBeLessThan(rowA.id);
    await drain();
    const all = [...appended, rowA.id, rowB.id];
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((x, y) => x - y)).toEqual([...all].sort((x, y) => x - y));
  });

  it("is held back by a transaction in flight in this database, never by one in another database", async () => {
    const db = getDb();
    const start = (await listJournal(db, { limit: 1 })).items[0]?.id ?? 0;
    const read = async () => (await listJournal(db, { actor, after: start, limit: 500 })).items.map((e) => e.id);
    // A long transaction elsewhere on a shared server (here: the cluster's `postgres` database).
    const elsewhere = postgres(inject("adminUrl"), { max: 1, onnotice: () => {} });
    const [hasXid, release] = [gate(), gate()];
    const held = elsewhere.begin(async (tx) => {
      await tx`select pg_current_xact_id()`;
      hasXid.open();
      await release.promise;
    });
    await hasXid.promise;
    try {
      const first = await appendLooseEvent(db, mark(20_000));
      expect(await read()).toContain(first.id);

      // In this database, an older transaction still in flight holds later commits back until it ends.
      const [oursHasXid, releaseOurs] = [gate(), gate()];
      const ours = db.transaction(async (tx) => {
        await tx.execute(sql`select pg_current_xact_id()`);
        oursHasXid.open();
        await releaseOurs.promise;
        return appendLooseEvent(tx, mark(20_001));
      });
      await oursHasXid.promise;
      const second = await appendLooseEvent(db, mark(20_002));
      expect(await read()).not.toContain(second.id);
      releaseOurs.open();
      const late = await ours;
      expect(await read()).toEqual(expect.arrayContaining([first.id, second.id, late.id]));
    } finally {
      release.open();
      await held;
      await elsewhere.end();
    }
  });

  it("newest first (before=) returns every event that existed once, however many arrive meanwhile", async () => {
    const db = getDb();
    const existing = (await readAll({ actor }, "before")).ids;
    let stop = false;
    const writer = (async () => {
      let i = 0;
      while (!stop) await appendLooseEvent(db, mark(10_000 + i++));
    })();
    const first = await listJournal(db, { actor, limit: 7 });
    const { ids } = await readAll({ actor }, "before", first.items.at(-1)!.id);
    stop = true;
    await writer;
    const read = [...first.items.map((e) => e.id), ...ids];
    expect(new Set(read).size).toBe(read.length);
    for (const id of existing) expect(read).toContain(id);
    expect([...read].sort((x, y) => y - x)).toEqual(read);
  });
});

describe("journal search", () => {
  it("finds message bodies and nested payload strings by stem, phrase and negation, and nothing else", async () => {
    const db = getDb();
    const human = await makeHuman();
    const tag = `zq${randomUUID().slice(0, 6)}`;
    const parsing = await postMessage(db, human, "general", { body: `${tag} the parser is failing on empty input` }, systemClock);
    await postMessage(db, human, "general", { body: `${tag} lunch is at noon` }, systemClock);
    const tool = await appendLooseEvent(db, {
      kind: "ToolReturned",
      actor,
      runId: "run_search",
      data: { tool: "run_tests", observation: { is_error: true, reason: `${tag} parse('') threw a TypeError`, recovery_hint: "guard the empty string" } },
    });
    const kinds = async (q: string, extra: JournalQuery = {}) => (await listJournal(db, { q, ...extra })).items.map((e) => e.id);
    const sent = (await listJournal(db, { kind: "MessageSent", actor: human.id })).items;
    const parsingEvent = sent.find((e) => (e.data as { messageId: number }).messageId === parsing.id)!.id;

    expect(await kinds(`${tag} failing`)).toEqual([parsingEvent]);
    expect(await kinds(`${tag} fails`)).toEqual([parsingEvent]); // stemmed: fails ~ failing
    expect(await kinds(`${tag} TypeError`)).toEqual([tool.id]); // a string nested in the payload
    expect(await kinds(`${tag} "empty string"`)).toEqual([tool.id]); // a phrase
    expect(new Set(await kinds(`${tag} -lunch`))).toEqual(new Set([parsingEvent, tool.id]));
    expect(await kinds(`${tag} empty`, { kind: "MessageSent" })).toEqual([parsingEvent]);
    expect(await kinds(`${tag} giraffe`)).toEqual([]);
    // Bookkeeping kinds (ids, rooms, fixed words) are left out of the search index (migration 0024): the
    // kind filter finds them.
    const receipt = await appendLooseEvent(db, { kind: "CursorAdvanced", actor, data: { room: `${tag}receipts`, seq: 1, previous: null } });
    expect(await kinds(`${tag}receipts`)).toEqual([]);
    expect((await listJournal(db, { kind: "CursorAdvanced", actor })).items.map((e) => e.id)).toContain(receipt.id);

    const res = await call(journalRoute, `/api/journal?q=${encodeURIComponent(`${tag} guard`)}`, { cookie: human.cookie });
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: { id: number }) => e.id)).toEqual([tool.id]);
    const tooLong = await call(journalRoute, `/api/journal?q=${"x".repeat(201)}`, { cookie: human.cookie });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.issues[0].path).toEqual(["q"]);
    // A search Postgres cannot read (its tsquery stack overflows) is the client's mistake, with the reason.
    const unreadable = await call(journalRoute, `/api/journal?q=${"-".repeat(200)}`, { cookie: human.cookie });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toMatchObject({ error: "invalid", issues: [{ path: ["q"], message: expect.stringContaining("tsquery") }] });
  });

  it("finds an event while another instance holds the indexer, and through the index once it is indexed", async () => {
    const db = getDb();
    const tag = `zq${randomUUID().slice(0, 6)}`;
    const event = await appendLooseEvent(db, { kind: "ToolReturned", actor, runId: "run_search", data: { tool: "grep", observation: `${tag} needle` } });
    const indexed = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from event_search where event_id = ${event.id}`))[0].n;
    const found = async () => (await listJournal(db, { q: `${tag} needle` })).items.map((e) => e.id);
    // Another instance is indexing (it holds the watermark's row): the search reads the unindexed tail itself.
    const held = rawClientOf(db);
    const other = await held.reserve();
    try {
      await other`begin`;
      await other`select * from event_search_watermark for update`;
      expect(await found()).toEqual([event.id]);
      expect(await indexed()).toBe(0);
    } finally {
      await other`rollback`;
      other.release();
    }
    // Free again: a search indexes the settled tail first (a transaction still open in another test file can
    // hold the settle horizon back for a moment), and finds the event through event_search.
    for (let tries = 0; tries < 100 && (await indexed()) === 0; tries++) {
      expect(await found()).toEqual([event.id]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await indexed()).toBe(1);
    expect(await found()).toEqual([event.id]);
  });

  it("uses the full-text index, and reads only the events past the watermark directly", async () => {
    const db = getDb();
    const mark = await readSearchWatermark(db);
    const explain = (search: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const plan = await tx.execute<{ "QUERY PLAN": string }>(sql`explain select id from events where ${search}`);
        return [...plan].map((r) => r["QUERY PLAN"]).join("\n");
      });
    expect(await explain(searchIndexed("parser", mark))).toMatch(/event_search_document_idx/);
    // The tail is a range of events_settled_idx (each partition's) from the watermark, not a document computed for every event.
    const tail = await explain(searchTail("parser", mark));
    expect(tail).toMatch(/Scan (using|on) events_(\d{4}_\d{2}|default)_settled_idx/);
    expect(tail).toMatch(/Index Cond: \(ROW\(tx_id, id\) > ROW\(/);
  });
});

describe("journal plumbing", () => {
  it("`system: hide` leaves out the plumbing kinds unless they are named; by default every kind comes back", async () => {
    const db = getDb();
    const run = `run_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const who = randomUUID();
    await appendLooseEvent(db, { kind: "LeaseRenewed", actor: who, runId: run, data: { fence: 1, leaseExpiresAt: new Date().toISOString() } });
    await appendLooseEvent(db, { kind: "OutputAppended", actor: who, runId: run, data: { n: 1 } });
    await appendLooseEvent(db, { kind: "TaskCancelled", actor: who, runId: run, data: { number: 1, from: "ready", adrId: randomUUID(), adrTitle: "t", ownerId: null } });
    const kinds = async (query: JournalQuery) => (await listJournal(db, { run, ...query })).items.map((e) => e.kind).sort();
    expect(await kinds({})).toEqual(["LeaseRenewed", "OutputAppended", "TaskCancelled"]);
    expect(await kinds({ system: "hide" })).toEqual(["TaskCancelled"]);
    expect(await kinds({ system: "hide", kind: "LeaseRenewed" })).toEqual(["LeaseRenewed"]);
    const answer = await call(journalRoute, `/api/journal?run=${run}&system=hide`, { cookie: (await makeHuman()).cookie });
    expect((answer.body as { items: { kind: string }[] }).items.map((e) => e.kind)).toEqual(["TaskCancelled"]);
  });
});

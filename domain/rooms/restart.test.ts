// Gate state lives in tables: a second process (a restarted server) reaches the same verdicts.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { makeAgent, makeHuman } from "../../test/helpers";
import { readDigest } from "./digest";
import { openFocusWindow } from "./focus";
import { ackAndPost, freshRoom, tryPost, type PostOutcome } from "../../test/fixtures/room";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");

interface Attempt {
  who: string;
  body: string;
  to?: string;
  holdToken?: string;
}

/** Posts from a brand-new process with its own connection: nothing but the database is shared. */
async function inAnotherProcess(room: string, at: Date, attempts: Attempt[], digestOf: string) {
  const script = `(async () => {
    const { connect } = await import(${JSON.stringify(`${root}/db/client.ts`)});
    const { postMessage } = await import(${JSON.stringify(`${root}/domain/rooms/post-message.ts`)});
    const { readDigest } = await import(${JSON.stringify(`${root}/domain/rooms/digest.ts`)});
    const { principals } = await import(${JSON.stringify(`${root}/db/schema/index.ts`)});
    const { eq } = await import("drizzle-orm");
    const conn = connect(process.env.DATABASE_URL, { max: 1 });
    const clock = { now: () => new Date(${JSON.stringify(at.toISOString())}) };
    const out = [];
    for (const a of ${JSON.stringify(attempts)}) {
      const [who] = await conn.db.select().from(principals).where(eq(principals.id, a.who));
      const input = { body: a.body, ...(a.to ? { to: a.to } : {}), ...(a.holdToken ? { holdToken: a.holdToken } : {}) };
      try {
        const m = await postMessage(conn.db, who, ${JSON.stringify(room)}, input, clock);
        out.push({ ok: true, seq: m.seq });
      } catch (e) {
        out.push({ ok: false, status: e.status, code: e.code, body: e.toBody() });
      }
    }
    const digest = await readDigest(conn.db, ${JSON.stringify(digestOf)});
    await conn.close();
    console.log(JSON.stringify({ out, digest: digest.items.map((m) => m.body) }));
  })().catch((e) => { console.error(e); process.exit(1); });`;
  const { stdout } = await run("npx", ["tsx", "--eval", script], { cwd: root, env: process.env, timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { out: PostOutcome[]; digest: string[] };
}

/** What a verdict is made of, without the one-time token or message ids. */
function verdict(o: PostOutcome | { ok: true; seq: number }) {
  if (o.ok) return { ok: true };
  const { holdToken: _token, unread, message: _message, ...rest } = o.body;
  return { status: o.status, code: o.code, ...rest, unread: (unread as { body: string }[] | undefined)?.map((m) => m.body) };
}

describe("restart", () => {
  it("gives the same verdicts, honours hold tokens and keeps digests across processes", async () => {
    const clock = manualClock(new Date());
    const human = await makeHuman();
    const [capped, late, focused] = [await makeAgent(), await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    await tryPost(human, room, "go", clock);
    for (let i = 1; i <= 6; i++) expect((await ackAndPost(capped, room, `note ${i}`, clock)).ok).toBe(true);
    await getDb().transaction((tx) => openFocusWindow(tx, focused.id, randomUUID(), clock.now()));
    await tryPost(human, room, "still here", clock);
    // The human's message reset the count: fill the new round to the cap of 6.
    for (let i = 8; i <= 13; i++) expect((await tryPost(capped, room, { body: `note ${i}`, to: human.name }, clock)).ok).toBe(true);
    const attempts: Attempt[] = [
      { who: capped.id, body: "note 14", to: human.name }, // over the two-tier cap
      { who: capped.id, body: "note 1", to: human.name }, // a verbatim duplicate
      { who: late.id, body: "catching up" }, // stale: everything is unread
    ];
    const byId = new Map([capped, late].map((p) => [p.id, p]));
    const before: PostOutcome[] = [];
    for (const a of attempts) before.push(await tryPost(byId.get(a.who)!, room, { body: a.body, ...(a.to ? { to: a.to } : {}) }, clock));
    expect(before.map((o) => (o.ok ? "ok" : o.code))).toEqual(["lapping", "duplicate", "stale"]);
    const token = !before[2].ok ? String(before[2].body.holdToken) : "";

    const after = await inAnotherProcess(room, clock.now(), [...attempts, { who: late.id, body: "catching up", holdToken: token }], focused.id);
    expect(after.out.slice(0, 3).map(verdict)).toEqual(before.map(verdict));
    // The token issued before the restart works after it, once.
    expect(after.out[3].ok).toBe(true);
    expect(after.digest).toEqual((await readDigest(getDb(), focused.id)).items.map((m) => m.body));
    // The digest opened before the restart kept what it held, and took the post made after it.
    expect(after.digest).toEqual(["still here", "catching up"]);
  }, 90_000);
});

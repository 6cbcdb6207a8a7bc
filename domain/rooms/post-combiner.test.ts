// Posts that queue behind one in flight in the same room go in together: one transaction, queue order,
// each answered with its own message, and a post that fails does not take the others with it.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { makeAgent, makeHuman } from "../../test/helpers";
import { freshRoom, tryPost } from "../../test/fixtures/room";

/** The transactions the room's MessageSent events were written in, by seq. */
async function transactionsBySeq(room: string): Promise<Map<number, string>> {
  const rows = await getDb().execute<{ seq: number; tx: string }>(
    sql`select (data->>'seq')::int as seq, tx_id::text as tx from events where kind = 'MessageSent' and data->>'room' = ${room}`,
  );
  return new Map(rows.map((r) => [Number(r.seq), r.tx]));
}

describe("posts queued in one room", () => {
  it("go in together, in the order they came, each answered with its own seq", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const room = await freshRoom(human);
    const outcomes = await Promise.all(Array.from({ length: 24 }, (_, i) => tryPost(human, room, `line ${i}`, clock)));
    const seqs = outcomes.map((o) => (o.ok ? o.message.seq : -1));
    // Queue order is call order: the first goes alone, the rest follow it in order.
    expect(seqs).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const txs = await transactionsBySeq(room);
    expect(txs.size).toBe(24);
    // Fewer transactions than posts: the ones that waited shared a commit.
    expect(new Set(txs.values()).size).toBeLessThan(24);
  });

  it("each see the ones before them: of eight identical bodies from one agent, one passes", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    const room = await freshRoom(human);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => tryPost(agent, room, { body: "same words", to: human.name }, clock)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.code)).toEqual(Array(7).fill("duplicate"));
    // Each refusal is journalled once, by the call that refused it: the queued ones in their batch's transaction.
    const rejected = await getDb().execute<{ tx: string }>(
      sql`select tx_id::text as tx from events where kind = 'GateRejected' and actor = ${agent.id}::uuid and data->>'room' = ${room}`,
    );
    expect(rejected).toHaveLength(7);
    expect(new Set(rejected.map((r) => r.tx)).size).toBeLessThan(7);
  });

  it("give each stale refusal in a batch its own hold token, which works", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agents = await Promise.all(Array.from({ length: 6 }, () => makeAgent()));
    const room = await freshRoom(human);
    await tryPost(human, room, "news nobody has read", clock);
    const outcomes = await Promise.all(agents.map((a, i) => tryPost(a, room, `my take ${i}`, clock)));
    expect(outcomes.map((o) => !o.ok && o.code)).toEqual(Array(6).fill("stale"));
    const tokens = outcomes.map((o) => (!o.ok ? String(o.body.holdToken) : ""));
    expect(new Set(tokens).size).toBe(6);
    expect(outcomes.every((o) => !o.ok && o.body.holdSeq === 1 && (o.body.unread as { body: string }[])[0].body === "news nobody has read")).toBe(true);
    expect((await tryPost(agents[4], room, { body: "my take 4", holdToken: tokens[4] }, clock)).ok).toBe(true);
  });

  it("do not fail with one that fails: the others are stored, and it fails as it would alone", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const room = await freshRoom(human);
    // A NUL the database cannot store (the API refuses it with a 400 before it gets here; a caller inside
    // the server could still send it): its statement fails, and with it the batch's transaction.
    const unstorable = { body: "a NUL \u0000 byte" };
    const failure = (error: unknown) => ({ failed: String(error) });
    const alone = await tryPost(human, room, unstorable, clock).catch(failure);
    expect(alone).toMatchObject({ failed: expect.stringContaining("0x00") });
    const together = await Promise.all(Array.from({ length: 6 }, (_, i) => tryPost(human, room, i === 3 ? unstorable : `line ${i}`, clock).catch(failure)));
    expect(together[3]).toEqual(alone);
    expect(together.filter((o) => "ok" in o && o.ok)).toHaveLength(5);
    // Stored once each, gap-free: the batch that failed left nothing behind.
    expect([...(await transactionsBySeq(room)).keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});

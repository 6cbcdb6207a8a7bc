// Freshness: seen-cursors move only by ack; stale refusals inline the unread and a single-use hold token.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, holdTokens, seenCursors } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { hashSecret } from "../principals/secrets";
import { listMessages } from "./list-messages";
import { makeAgent, makeHuman } from "../../test/helpers";
import { advanceCursor, readCursor } from "./cursor";
import { sweepRelay } from "./sweep";
import { ackAll, freshRoom, tryPost } from "../../test/fixtures/room";

async function setup() {
  const clock = manualClock();
  const human = await makeHuman();
  const [a, b] = [await makeAgent(), await makeAgent()];
  const room = await freshRoom(human);
  // A human keeps the loop gates loose (two-tier cap 6), so freshness is the gate in play.
  await tryPost(human, room, "morning", clock);
  await ackAll(a, room, clock);
  await ackAll(b, room, clock);
  return { clock, human, a, b, room };
}

describe("freshness", () => {
  it("refuses a broadcast over unread messages from others, inlining them with a hold token; acking passes", async () => {
    const { clock, a, b, room } = await setup();
    const news = await tryPost(b, room, "tests are red on main", clock);
    const stale = await tryPost(a, room, "merging my branch now", clock);
    expect(stale).toMatchObject({ ok: false, status: 409, code: "stale" });
    if (stale.ok) return;
    expect(stale.body.unread).toEqual([expect.objectContaining({ body: "tests are red on main", senderId: b.id })]);
    expect(typeof stale.body.holdToken).toBe("string");
    expect(stale.body.holdSeq).toBe(news.ok && news.message.seq);
    // The next step is said in neutral words and as a hint each surface words itself: no route, no tool.
    const holdSeq = news.ok ? news.message.seq : -1;
    expect(stale.body.message).toContain(`ack up to seq ${holdSeq} or retry with the hold token`);
    expect(stale.body.message).not.toMatch(/\/api\/|POST |GET |ack_messages|post_message/);
    expect(stale.body.hint).toBeUndefined();
    expect(stale.hint).toEqual([
      { action: "ack", room, seq: holdSeq },
      { action: "retry_with_hold_token", room },
    ]);
    // Reading does not ack.
    await listMessages(getDb(), a, room, {});
    expect(await tryPost(a, room, "merging my branch now", clock)).toMatchObject({ ok: false, code: "stale" });
    await ackAll(a, room, clock);
    expect((await tryPost(a, room, "merging my branch now", clock)).ok).toBe(true);
  });

  it("ignores the sender's own messages and skips direct messages", async () => {
    const { clock, a, b, room } = await setup();
    expect((await tryPost(a, room, "first", clock)).ok).toBe(true);
    expect((await tryPost(a, room, { body: "second" }, clock)).ok).toBe(true);
    await ackAll(b, room, clock);
    expect((await tryPost(b, room, "an aside", clock)).ok).toBe(true);
    expect((await tryPost(a, room, { body: "to b only", to: b.name }, clock)).ok).toBe(true);
    expect(await tryPost(a, room, "to everyone", clock)).toMatchObject({ ok: false, code: "stale" });
  });

  it("lets a hold token through once, bound to the latest seq shown, and marks the message held_seq", async () => {
    const { clock, a, b, room } = await setup();
    await tryPost(b, room, "b says one", clock);
    const stale = await tryPost(a, room, "a says one", clock);
    const holdToken = !stale.ok ? String(stale.body.holdToken) : "";
    // Issued with the refusal, for 120 s, and stored only as its hash: the text exists in the answer alone.
    const [stored] = await getDb().select().from(holdTokens).where(eq(holdTokens.principalId, a.id));
    expect(stored).toMatchObject({ tokenHash: hashSecret(holdToken), room, seq: !stale.ok && stale.body.holdSeq, usedAt: null });
    expect(stored.expiresAt.getTime() - stored.issuedAt.getTime()).toBe(120_000);
    expect(JSON.stringify(await getDb().select().from(events).where(eq(events.actor, a.id)))).not.toContain(holdToken);
    const held = await tryPost(a, room, { body: "a says one", holdToken }, clock);
    expect(held.ok).toBe(true);
    expect(held.ok && held.message.heldSeq).toBe(!stale.ok && stale.body.holdSeq);
    // Single use: the same token again is refused, with a fresh one.
    const reused = await tryPost(a, room, { body: "a says two", holdToken }, clock);
    expect(reused).toMatchObject({ ok: false, code: "stale" });
    expect(!reused.ok && reused.body.holdToken).not.toBe(holdToken);
    expect(!reused.ok && reused.body.message).toContain("used");
  });

  it("refuses a token once anything newer arrived, and the fresh token it returns works", async () => {
    const { clock, a, b, room } = await setup();
    await tryPost(b, room, "b1", clock);
    const first = await tryPost(a, room, "a1", clock);
    const oldToken = !first.ok ? String(first.body.holdToken) : "";
    await tryPost(b, room, "b2", clock);
    const again = await tryPost(a, room, { body: "a1", holdToken: oldToken }, clock);
    expect(again).toMatchObject({ ok: false, code: "stale" });
    if (again.ok) return;
    expect((again.body.unread as { body: string }[]).map((m) => m.body)).toEqual(["b1", "b2"]);
    expect(again.body.message).toContain("newer arrived");
    const fresh = String(again.body.holdToken);
    expect(fresh).not.toBe(oldToken);
    expect((await tryPost(a, room, { body: "a1", holdToken: fresh }, clock)).ok).toBe(true);
  });

  it("honours a token for 120 s and not a millisecond longer", async () => {
    const { clock, a, b, room } = await setup();
    await tryPost(b, room, "b1", clock);
    const first = await tryPost(a, room, "a1", clock);
    const second = await tryPost(a, room, "a1", clock);
    const [t1, t2] = [first, second].map((r) => (!r.ok ? String(r.body.holdToken) : ""));
    clock.advance(119_999);
    expect((await tryPost(a, room, { body: "a1", holdToken: t2 }, clock)).ok).toBe(true);
    clock.advance(1);
    const expired = await tryPost(a, room, { body: "a2", holdToken: t1 }, clock);
    expect(expired).toMatchObject({ ok: false, code: "stale" });
    expect(!expired.ok && expired.body.message).toContain("expired");
    // The sweep deletes dead tokens; one presented later is simply unknown.
    clock.advance(1);
    expect((await sweepRelay(getDb(), clock)).holdTokensPurged).toBeGreaterThanOrEqual(1);
    const unknown = await tryPost(a, room, { body: "a2", holdToken: t1 }, clock);
    expect(!unknown.ok && unknown.body.message).toContain("unknown");
  });

  it("refuses another agent's token", async () => {
    const { clock, a, b, room } = await setup();
    const c = await makeAgent();
    await tryPost(b, room, "b1", clock);
    const cStale = await tryPost(c, room, "c1", clock);
    const cToken = !cStale.ok ? String(cStale.body.holdToken) : "";
    expect(cToken).toMatch(/^hold_/);
    const refused = await tryPost(a, room, { body: "a1", holdToken: cToken }, clock);
    expect(refused).toMatchObject({ ok: false, code: "stale" });
    expect(!refused.ok && refused.body.message).toContain("unknown");
  });
});

describe("seen-cursors", () => {
  it("move forward only, never past the room's end, and journal CursorAdvanced", async () => {
    const { clock, a, b, room } = await setup();
    await tryPost(b, room, "one", clock);
    const moved = await advanceCursor(getDb(), a, room, { seq: 2 }, clock);
    expect(moved).toMatchObject({ seq: 2, moved: true });
    expect(await advanceCursor(getDb(), a, room, { seq: 1 }, clock)).toMatchObject({ seq: 2, moved: false });
    await expect(advanceCursor(getDb(), a, room, { seq: 99 }, clock)).rejects.toMatchObject({ status: 400 });
    await expect(advanceCursor(getDb(), a, `${room}-gone`, { seq: 0 }, clock)).rejects.toMatchObject({ status: 404 });
    expect((await readCursor(getDb(), a, room)).seq).toBe(2);
    const journalled = await getDb()
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.kind, "CursorAdvanced"), eq(events.actor, a.id)));
    // One event per forward move: the setup's ack and this one; the refused and backward acks wrote nothing.
    expect(journalled.map((e) => e.data)).toEqual([
      { room, seq: 1, previous: 0 },
      { room, seq: 2, previous: 1 },
    ]);
  });

  it("are held forward by the database too, as hold tokens are held to one use", async () => {
    const { clock, a, b, room } = await setup();
    const back = getDb().update(seenCursors).set({ seq: 0 }).where(eq(seenCursors.principalId, a.id));
    await expect(back).rejects.toMatchObject({ cause: { message: expect.stringMatching(/never moves back/) } });
    await tryPost(b, room, "b1", clock);
    const stale = await tryPost(a, room, "a1", clock);
    expect((await tryPost(a, room, { body: "a1", holdToken: !stale.ok ? String(stale.body.holdToken) : "" }, clock)).ok).toBe(true);
    const spent = getDb().update(holdTokens).set({ usedAt: null }).where(eq(holdTokens.principalId, a.id));
    await expect(spent).rejects.toMatchObject({ cause: { message: expect.stringMatching(/spent once/) } });
  });
});

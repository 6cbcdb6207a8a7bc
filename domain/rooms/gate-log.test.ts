// What the journal keeps of a refusal, and what its readers (the Room's gate strip, the agent's page) say:
// the database records each refusal once, in the call that refused it, and the words are the sender's.
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { getAgentDetail } from "../roster/agent-detail";
import { makeAgent, makeHuman } from "../../test/helpers";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { ackAll, ackAndPost, freshRoom, tryPost } from "../../test/fixtures/room";
import { listGateRejections } from "./gate-log";

async function rejectionsOf(actor: string) {
  return getDb()
    .select({ v: events.v, data: events.data })
    .from(events)
    .where(and(eq(events.kind, "GateRejected"), eq(events.actor, actor)))
    .orderBy(asc(events.id));
}

describe("the gate log", () => {
  it("says each refusal in the words its sender got, from one GateRejected per refusal", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    await tryPost(human, room, "morning", clock);
    await ackAll(a, room, clock);
    expect((await tryPost(a, room, "hello", clock)).ok).toBe(true);
    const refusals = [await ackAndPost(a, room, "hello", clock)]; // duplicate
    expect((await ackAndPost(b, room, "news", clock)).ok).toBe(true);
    refusals.push(await tryPost(a, room, { body: "over the news", holdToken: "hold_unknown" }, clock)); // stale, the token unknown
    for (let i = 2; i <= 6; i++) expect((await ackAndPost(a, room, `step ${i}`, clock)).ok).toBe(true);
    refusals.push(await ackAndPost(a, room, "step 7", clock)); // the two-tier cap of 6 while the human is here
    clock.advance(10 * 60 * 1000);
    refusals.push(await ackAndPost(a, room, "step 7", clock)); // lapping: 6 messages since the human, 2 speakers
    const told = refusals.map((r) => (r.ok ? "posted" : `${r.code}: ${r.body.message}`));
    expect(told.map((t) => t.split(":")[0])).toEqual(["duplicate", "stale", "lapping", "lapping"]);

    const strip = await listGateRejections(getDb(), human, room, { limit: 50 });
    expect(strip.items.map((r) => `${r.reason}: ${r.message}`).reverse()).toEqual(told);
    const detail = await getAgentDetail(getDb(), clock, {}, a.id, human);
    expect(detail.gateRejections.map((r) => `${r.reason}: ${r.message}`).reverse()).toEqual(told);
    // The journal keeps the refusal (gate, reason, figures), not its words: v 2.
    const stored = await rejectionsOf(a.id);
    expect(stored).toHaveLength(4);
    expect(stored.every((e) => e.v === 2 && !("message" in (e.data as object)))).toBe(true);
    expect(stored.map((e) => (e.data as { gate: string }).gate)).toEqual(["duplicate", "freshness", "two_tier", "lapping"]);
    expect(stored[1].data).toMatchObject({ gate: "freshness", reason: "stale", figures: { tokenProblem: "unknown", unreadCount: 1 } });
  });

  it("still shows the words an older refusal carries in its event", async () => {
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    await appendLooseEvent(getDb(), {
      kind: "GateRejected",
      actor: a.id,
      data: {
        room,
        gate: "rate",
        reason: "rate_limited",
        message: "rate floor: 30 messages in the last minute, as an older Quorum said it",
        sender: a.id,
        senderName: a.name,
        to: null,
        bodyPreview: "one more",
        figures: { sentInWindow: 30 },
      },
    });
    const strip = await listGateRejections(getDb(), human, room);
    expect(strip.items.map((r) => r.message)).toEqual(["rate floor: 30 messages in the last minute, as an older Quorum said it"]);
    const detail = await getAgentDetail(getDb(), manualClock(), {}, a.id, human);
    expect(detail.gateRejections.map((r) => r.message)).toEqual(["rate floor: 30 messages in the last minute, as an older Quorum said it"]);
  });

  it("previews the first 200 UTF-16 units of a refused body, as it always has, even where a character would straddle the end", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    await ackAndPost(a, room, "first", clock);
    // 150 + 2 × 25 units: the emoji past the BMP count two each, as JavaScript's slice counts them.
    const emoji = `${"x".repeat(150)}${"😀".repeat(60)}`;
    const straddling = `${"y".repeat(199)}😀 and more`;
    for (const body of [emoji, straddling]) expect(await ackAndPost(a, room, body, clock)).toMatchObject({ ok: false, code: "lapping" });
    const previews = (await listGateRejections(getDb(), human, room)).items.map((r) => r.bodyPreview).reverse();
    expect(previews).toEqual([emoji.slice(0, 200), "y".repeat(199)]);
  });
});

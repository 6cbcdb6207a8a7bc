// The courtesy loop: two polite scripted agents thanking each other forever are stopped by the gates.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import type { Principal } from "../principal";
import { makeAgent, makeHuman } from "../../test/helpers";
import { advanceCursor } from "./cursor";
import { listGateRejections } from "./gate-log";
import { readInbox } from "./inbox";
import { freshRoom, tryPost } from "../../test/fixtures/room";

type Clock = ReturnType<typeof manualClock>;

interface Speaker {
  me: Principal;
  other: Principal;
  /** A thank-you the gates refused, to be tried again on a later turn. */
  pending?: string;
}

/**
 * One turn of a polite agent: read its mail, ack it, and answer the latest message from the
 * other with a new thank-you (or retry the one refused before); when stale, ack what the
 * refusal showed and try once more; when refused by a loop gate or the rate floor, wait as
 * told and try again on a later turn.
 */
async function politeTurn(speaker: Speaker, room: string, clock: Clock): Promise<string> {
  const { me, other } = speaker;
  const mail = await readInbox(getDb(), me, room);
  const fromOther = mail.items.filter((m) => m.senderId === other.id);
  if (mail.items.length > 0) await advanceCursor(getDb(), me, room, { seq: mail.items[mail.items.length - 1].seq }, clock);
  const reply = fromOther.length ? `Thank you, @${other.name}! Re #${fromOther[fromOther.length - 1].seq}: agreed, great point.` : speaker.pending;
  if (!reply) return "idle";
  let outcome = await tryPost(me, room, reply, clock);
  if (!outcome.ok && outcome.code === "stale") {
    const unread = outcome.body.unread as { seq: number }[];
    await advanceCursor(getDb(), me, room, { seq: unread[unread.length - 1].seq }, clock);
    outcome = await tryPost(me, room, reply, clock);
  }
  speaker.pending = outcome.ok ? undefined : reply;
  if (outcome.ok) return "posted";
  if (outcome.code === "rate_limited") clock.advance(Number(outcome.body.retryAfterMs));
  return outcome.code;
}

/** Runs the two agents for `turns` turns each, 5 s of simulated time per turn; counts what each posted. */
async function converse(a: Principal, b: Principal, room: string, clock: Clock, turns: number) {
  const speakers: Speaker[] = [
    { me: b, other: a },
    { me: a, other: b },
  ];
  const posted = new Map([
    [a.id, 0],
    [b.id, 0],
  ]);
  const refusals: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    for (const speaker of speakers) {
      const result = await politeTurn(speaker, room, clock);
      if (result === "posted") posted.set(speaker.me.id, posted.get(speaker.me.id)! + 1);
      else if (result !== "idle") refusals.push(result);
      clock.advance(5_000);
    }
  }
  return { a: posted.get(a.id)!, b: posted.get(b.id)!, refusals };
}

describe("courtesy loop", () => {
  it("with no human present, stops two agents after 4 messages (2 each: lapping with 2 speakers)", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    expect((await tryPost(a, room, `Hi @${b.name}, could you look at my parser change?`, clock)).ok).toBe(true);
    // 100 turns each: over 16 minutes of simulated time, far past any window.
    const result = await converse(a, b, room, clock, 100);
    expect(1 + result.a + result.b).toBe(4);
    expect({ a: 1 + result.a, b: result.b }).toEqual({ a: 2, b: 2 });
    expect(new Set(result.refusals)).toEqual(new Set(["lapping"]));
    // What a human sees: the gate strip names the agent held back, the gate, and the thank-you it tried.
    const strip = await listGateRejections(getDb(), human, room, { limit: 50 });
    expect(strip.items.length).toBeGreaterThan(0);
    expect(strip.items.every((r) => r.senderName === a.name && r.gate === "lapping" && r.bodyPreview.startsWith("Thank you"))).toBe(true);
  });

  it("after one human message, stops them at 12 (the two-tier cap of 6 each), and after the human leaves too", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    await tryPost(human, room, "You two sort out the parser between you.", clock);
    await advanceCursor(getDb(), a, room, { seq: 1 }, clock);
    expect((await tryPost(a, room, `Hi @${b.name}, could you look at my parser change?`, clock)).ok).toBe(true);
    // 200 turns each: 33 minutes, so the human's 10-minute presence ends midway and strict lapping returns.
    const result = await converse(a, b, room, clock, 200);
    expect({ a: 1 + result.a, b: result.b }).toEqual({ a: 6, b: 6 });
    expect(new Set(result.refusals)).toEqual(new Set(["lapping"]));
    const gates = new Set((await listGateRejections(getDb(), human, room, { limit: 200 })).items.map((r) => r.gate));
    expect(gates).toEqual(new Set(["two_tier", "lapping"]));
  });
});

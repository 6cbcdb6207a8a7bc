// The gates experiment (`quorum experiment gates`): the same scripted agents through Quorum's relay and through
// the experiment's baseline relay — what a user reads in the table: the gates stop the courtesy loop and the
// parroting, keep a stale answer out, and cost less; the baseline writes what a post writes.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../../domain/clock";
import { loadEventsOfKinds } from "../../domain/journal/load";
import { payloadOf } from "../../domain/journal/payloads";
import { listMessages } from "../../domain/rooms/list-messages";
import { readInbox } from "../../domain/rooms/inbox";
import { makeAgent, makeHuman } from "../../test/helpers";
import { freshRoom } from "../../test/fixtures/room";
import { conversationScenarios } from "./gate-scenarios";
import { type ArmResult, flyScenario, gatesTable } from "./gates";
import { baselineRelay, gatedRelay } from "./relays";

const TURNS = 40;

async function bothArms(name: string): Promise<{ on: ArmResult; off: ArmResult }> {
  const scenario = conversationScenarios().find((s) => s.name === name)!;
  return { on: await flyScenario(getDb(), scenario, gatedRelay(getDb()), TURNS), off: await flyScenario(getDb(), scenario, baselineRelay(getDb()), TURNS) };
}

describe("the gates experiment", () => {
  it("stops the courtesy loop at the two-tier cap; without gates it runs until the experiment cuts it", async () => {
    const { on, off } = await bothArms("courtesy");
    expect(on.messages).toBe(12);
    expect(on.refusedBy["two-tier cap"]).toBeGreaterThan(0);
    expect(on.endedAfterSeconds).not.toBeNull();
    expect(off.refused).toBe(0);
    expect(off.messages).toBeGreaterThan(2 * on.messages);
    expect(off.endedAfterSeconds).toBeNull();
    expect(off.tokens).toBeGreaterThan(on.tokens);
  });

  it("lets a parroted status in once; without gates every repeat lands and is read", async () => {
    const { on, off } = await bothArms("parroting");
    expect(on.outcome).toMatch(/^build reported green; "still red" said 1 time/);
    expect(on.refusedBy.duplicate).toBeGreaterThan(0);
    expect(off.outcome).toMatch(/^build reported green; "still red" said [5-9] time/);
    expect(off.messages).toBeGreaterThan(on.messages);
    expect(off.tokens).toBeGreaterThan(on.tokens);
  });

  it("holds a stale answer until its author has read the new question; without gates the implementer acts on it and undoes it", async () => {
    const { on, off } = await bothArms("stale");
    expect(on.refusedBy.freshness).toBe(1);
    expect(on.outcome).toBe("log level set; the port never moved");
    expect(off.outcome).toBe("log level set; the port was changed to 3000 on the stale answer and put back");
    expect(on.endedAfterSeconds!).toBeLessThan(off.endedAfterSeconds!);
    expect(off.messages).toBeGreaterThan(on.messages);
  });

  it("tabulates both arms of each conversation, and says the baseline is the experiment's own", async () => {
    const table = await gatesTable(getDb(), { turns: TURNS });
    expect(table.rows.map((r) => [r[0], r[1].startsWith("Quorum") ? "on" : "off"])).toEqual([
      ["courtesy loop", "on"],
      ["courtesy loop", "off"],
      ["parroting", "on"],
      ["parroting", "off"],
      ["stale speech", "on"],
      ["stale speech", "off"],
    ]);
    expect(table.rows[0][5]).toBe("yes, by two-tier cap");
    expect(table.rows[1][5]).toBe("no");
    expect(table.rows[1][6]).toBe(`not reached (cut at ${TURNS * 5} s)`);
    expect(table.notes.join(" ")).toContain("no switch to turn them off");
  });

  it("the baseline writes what a post writes: the message, its seq, MessageSent and its delivery", async () => {
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    const clock = manualClock();
    expect(await baselineRelay(getDb()).post(a, room, `Hello @${b.name}`, clock)).toEqual({ ok: true, seq: 1 });
    expect(await baselineRelay(getDb()).post(a, room, `Hello @${b.name}`, clock)).toEqual({ ok: true, seq: 2 });
    const listed = await listMessages(getDb(), human, room, { after: 0 });
    expect(listed.items.map((m) => [m.seq, m.senderName, m.mentions])).toEqual([
      [1, a.name, [b.id]],
      [2, a.name, [b.id]],
    ]);
    expect((await readInbox(getDb(), b, room)).items).toHaveLength(2);
    const sent = (await loadEventsOfKinds(getDb(), ["MessageSent", "MessageDelivered"])).filter((e) => e.actor === a.id);
    expect(sent.filter((e) => e.kind === "MessageSent").map((e) => payloadOf(e, "MessageSent").seq)).toEqual([1, 2]);
    expect(sent.filter((e) => e.kind === "MessageDelivered")).toHaveLength(2);
    // Through Quorum's relay the same second post is a duplicate.
    const gated = gatedRelay(getDb());
    const other = await freshRoom(human);
    expect(await gated.post(a, other, "Same words", clock)).toMatchObject({ ok: true });
    expect(await gated.post(a, other, "Same words", clock)).toMatchObject({ ok: false, code: "duplicate", gate: "duplicate" });
  });
});

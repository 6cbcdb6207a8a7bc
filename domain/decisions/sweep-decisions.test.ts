// The decision sweeper: timeboxes escalate, escalations adopt their default, one sweeper at a time.
import { afterEach, describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
import { listJournal } from "../journal/list";
import { listMessages } from "../rooms/list-messages";
import { makeAgent, makeHuman } from "../../test/helpers";
import { castBallot } from "./cast-ballot";
import { readDecisionView } from "./decision-view";
import { openDecision, type OpenDecisionInput } from "./open-decision";
import { resolveEscalation } from "./resolve-escalation";
import { DECISION_SWEEP_LOCK, sweepDecisions } from "./sweep-decisions";

const deploy: OpenDecisionInput = {
  question: "Deploy on Friday?",
  options: ["yes", "no"],
  defaultOption: "no",
  consequence: "the release waits until Monday",
  quorum: 3,
  timeboxSeconds: 120,
  escalationTimeboxSeconds: 600,
};

async function eventsFor(kind: string, decisionId: string) {
  const { items } = await listJournal(getDb(), { kind, limit: 500 });
  return items.filter((e) => (e.data as { decisionId?: string }).decisionId === decisionId);
}

describe("sweepDecisions", () => {
  // Tests share a database: settle every leftover decision so each test counts only its own.
  afterEach(async () => {
    await sweepDecisions(getDb(), manualClock(new Date("2100-01-01T00:00:00Z")));
    await sweepDecisions(getDb(), manualClock(new Date("2101-01-01T00:00:00Z")));
  });

  it("leaves a decision alone until its timebox passes, then escalates it with the tally so far", async () => {
    const clock = manualClock();
    const agent = await makeAgent();
    const decision = await openDecision(getDb(), agent, deploy, clock);
    await castBallot(getDb(), agent, decision.id, { option: "yes", reasoning: "tests are green" }, clock);
    clock.advance(119_000);
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ ran: true, escalated: 0 });
    expect((await readDecisionView(getDb(), decision.id)).status).toBe("open");
    clock.advance(1_000);
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ ran: true, escalated: 1, announced: 1 });
    const escalated = await readDecisionView(getDb(), decision.id);
    expect(escalated.status).toBe("escalated");
    expect(escalated.envelope).toBe(
      ["Decide: Deploy on Friday?", "Tally: yes 1 · no 0 (1 of 3 ballots)", "Default: no", "If nobody decides by 2026-01-01 00:12 UTC: the release waits until Monday"].join("\n"),
    );
    expect((await eventsFor("DecisionEscalated", decision.id))[0].data).toMatchObject({ reason: "timebox", envelope: escalated.envelope });
    const room = await listMessages(getDb(), agent, "general", {});
    expect(room.items.filter((m) => m.body === escalated.envelope)).toHaveLength(1);
    // A second pass finds nothing new to do or to announce.
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ escalated: 0, defaulted: 0, announced: 0 });
  });

  it("adopts the default when the humans also time out, announces it, and then refuses a late resolve", async () => {
    const clock = manualClock();
    const agent = await makeAgent();
    const human = await makeHuman();
    const decision = await openDecision(getDb(), agent, deploy, clock);
    clock.advance(120_000);
    await sweepDecisions(getDb(), clock);
    clock.advance(599_000);
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ defaulted: 0 });
    clock.advance(1_000);
    await expect(resolveEscalation(getDb(), human, decision.id, { option: "yes" }, clock)).rejects.toMatchObject({ code: "timebox_expired" });
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ defaulted: 1, announced: 1 });
    expect(await readDecisionView(getDb(), decision.id)).toMatchObject({ status: "defaulted", outcome: "no", resolvedBy: null });
    expect(await eventsFor("DefaultAdopted", decision.id)).toHaveLength(1);
    const room = await listMessages(getDb(), human, "general", {});
    expect(room.items.some((m) => m.body.startsWith(`D-${decision.number} default adopted: “no” — nobody decided by 2026-01-01 00:12 UTC.`))).toBe(true);
    await expect(resolveEscalation(getDb(), human, decision.id, { option: "yes" }, clock)).rejects.toMatchObject({ code: "wrong_status" });
  });

  it("keeps a human's resolution: the sweeper never overrides it", async () => {
    const clock = manualClock();
    const agent = await makeAgent();
    const human = await makeHuman();
    const decision = await openDecision(getDb(), agent, deploy, clock);
    clock.advance(120_000);
    await sweepDecisions(getDb(), clock);
    clock.advance(300_000);
    await resolveEscalation(getDb(), human, decision.id, { option: "yes" }, clock);
    clock.advance(3_600_000);
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ defaulted: 0 });
    expect(await readDecisionView(getDb(), decision.id)).toMatchObject({ status: "resolved", outcome: "yes", resolvedByName: human.name });
  });

  it("does nothing while another instance holds the sweep lock, and never escalates twice when two run at once", async () => {
    const clock = manualClock();
    const agent = await makeAgent();
    const opened = await Promise.all(Array.from({ length: 5 }, () => openDecision(getDb(), agent, deploy, clock)));
    clock.advance(120_000);
    const { sql } = getConnection();
    const held = await sql.reserve();
    await held`begin`;
    await held`select pg_advisory_xact_lock(${DECISION_SWEEP_LOCK})`;
    expect(await sweepDecisions(getDb(), clock)).toEqual({ ran: false, escalated: 0, defaulted: 0, announced: 0 });
    await held`commit`;
    held.release();
    const passes = await Promise.all([sweepDecisions(getDb(), clock), sweepDecisions(getDb(), clock), sweepDecisions(getDb(), clock)]);
    expect(passes.reduce((sum, p) => sum + p.escalated, 0)).toBe(5);
    for (const decision of opened) expect(await eventsFor("DecisionEscalated", decision.id)).toHaveLength(1);
  });

  it("re-posts an announcement that was lost between the commit and the post", async () => {
    const clock = manualClock();
    const agent = await makeAgent();
    const decision = await openDecision(getDb(), agent, { ...deploy, quorum: 1 }, clock);
    await castBallot(getDb(), agent, decision.id, { option: "yes", reasoning: "ship it" }, clock);
    // As if the process died right after the decision closed, before the room heard of it.
    await getConnection().sql`update decisions set announced_status = null where id = ${decision.id}`;
    expect(await sweepDecisions(getDb(), clock)).toMatchObject({ announced: 1 });
    const room = await listMessages(getDb(), agent, "general", {});
    expect(room.items.filter((m) => m.body.startsWith(`D-${decision.number} decided by ballot: “yes”`))).toHaveLength(2);
  });
});

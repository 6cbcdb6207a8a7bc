// A human answers a finding from the desk: acknowledged with a note, or not a failure. The answer is journalled,
// replaces an earlier one, and the finding leaves what waits for the human; an agent may not answer.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { listWaiting } from "../desk/waiting";
import type { QuorumError } from "../errors";
import { launchFlight } from "../flights/launch";
import { ensureTeamMember } from "../flights/team-members";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { fixtureRepo } from "../../test/fixtures/repos";
import { makeAgent, makeHuman } from "../../test/helpers";
import { answerFinding } from "./answer";

async function flightWithFinding() {
  const db = getDb();
  const clock = manualClock();
  const human = await makeHuman();
  await ensureTeamMember(db, "orchestrator", "orchestrator", 1000, clock);
  const repo = fixtureRepo("answer", { "package.json": JSON.stringify({ scripts: { test: "node --test" } }) });
  const { flight } = await launchFlight(db, human, { goal: "Make the suite pass", repo, mode: "scripted" }, clock);
  const key = `FM-3.2:${flight.number}`;
  await appendLooseEvent(db, {
    kind: "DiagnosisFound",
    actor: null,
    data: {
      key: `${key}@high`,
      flightId: flight.id,
      mode: "FM-3.2",
      name: "No or incomplete verification",
      category: 3,
      severity: "high",
      sentence: "reviewer accepted #2 from coder with a test run that exited 1 behind it",
      eventIds: [],
      runIds: [],
      taskIds: [],
      agents: [],
    },
  });
  return { db, clock, human, flight, key };
}

const findingsWaiting = async (human: Awaited<ReturnType<typeof makeHuman>>) => (await listWaiting(getDb(), human)).items.filter((i) => i.kind === "finding");

describe("a human's answer to a finding", () => {
  it("takes it off the desk, journalled with its note; a later answer replaces it", async () => {
    const { db, clock, human, flight, key } = await flightWithFinding();
    expect((await findingsWaiting(human)).map((i) => i.kind === "finding" && i.findingKey)).toEqual([key]);

    const answer = await answerFinding(db, human, { key, verdict: "acknowledged", note: "the other task's test; fine" }, clock);
    expect(answer).toMatchObject({ key, flightId: flight.id, mode: "FM-3.2", verdict: "acknowledged", note: "the other task's test; fine", answeredBy: human.id });
    expect(await findingsWaiting(human)).toEqual([]);

    await answerFinding(db, human, { key, verdict: "not_a_failure" }, clock);
    const answered = await db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.kind, "FindingAnswered"), eq(events.actor, human.id)));
    expect(answered.map((e) => e.data)).toEqual([
      { key, flightId: flight.id, mode: "FM-3.2", severity: "high", verdict: "acknowledged", note: "the other task's test; fine" },
      { key, flightId: flight.id, mode: "FM-3.2", severity: "high", verdict: "not_a_failure", note: null },
    ]);
  });

  it("refuses an agent, and a key that names no finding, writing nothing", async () => {
    const { db, clock, human, key } = await flightWithFinding();
    const refusal = async (run: Promise<unknown>) =>
      (await run.then(
        () => null,
        (e: unknown) => e,
      )) as QuorumError;
    expect((await refusal(answerFinding(db, await makeAgent(), { key, verdict: "not_a_failure" }, clock))).status).toBe(403);
    expect((await refusal(answerFinding(db, human, { key: "FM-3.2:999999999", verdict: "acknowledged" }, clock))).status).toBe(404);
    expect(
      await db
        .select()
        .from(events)
        .where(and(eq(events.kind, "FindingAnswered"), sql`${events.data}->>'key' = ${key}`)),
    ).toEqual([]);
    expect(await findingsWaiting(human)).toHaveLength(1);
  });
});

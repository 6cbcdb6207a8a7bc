// The first flight, scripted, end to end on the real harness: red suite → reviewed, integrated, green.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { contextOf } from "../../domain/context";
import { events, flights, messages, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { EVENT_KINDS } from "../../domain/journal/kinds";
import { loadBill } from "../../domain/bill/bill";
import { loadEventsOfKinds } from "../../domain/journal/load";
import { diagnose } from "../../domain/diagnosis/diagnose";
import { diagnoseFlight } from "../../domain/diagnosis/scope";
import { checkoutState, suitePasses, sweepDiagnosisToTheEnd } from "../../test/fixtures/team";
import { makeHuman } from "../../test/helpers";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { launchFlight } from "../../domain/flights/launch";
import { ensureTeam } from "./team";
import { runTeamWorker } from "./worker";

/** Runs the whole team until the flight leaves `working`, or fails the test after a bound. */
async function fly(flightId: string): Promise<string> {
  const controller = new AbortController();
  const worker = runTeamWorker(contextOf(getConnection()), { roles: ["orchestrator", "coder", "reviewer", "tester"], model: null, signal: controller.signal, log: () => {} });
  const deadline = Date.now() + 60_000;
  let status = "planning";
  while (Date.now() < deadline) {
    [{ status }] = await getDb().select({ status: flights.status }).from(flights).where(eq(flights.id, flightId));
    if (status === "green" || status === "red") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // Let the orchestrator hand the goal to the human before stopping.
  await new Promise((r) => setTimeout(r, 1_000));
  controller.abort();
  await worker;
  return status;
}

describe("the first flight", () => {
  it("turns the scratch repository's suite from red to green through REQUEST → DONE → ACCEPT → integrate → DONE", async () => {
    const db = getDb();
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-flight-")));
    expect(suitePasses(repo)).toBe(false);
    const before = checkoutState(repo);
    const human = await makeHuman();
    const team = await ensureTeam(db, systemClock);
    // The MAST monitor watches from here on (its first pass starts at the journal's tail).
    await sweepDiagnosisToTheEnd();
    const { flight, goalTask } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: "scripted" }, systemClock);

    expect(await fly(flight.id)).toBe("green");
    // The work reached the user's repository as the flight's branch, and nothing else there changed.
    expect(flight.branch).toBe(`quorum/flight-${flight.number}`);
    expect(suitePasses(repo, flight.branch)).toBe(true);
    expect(execFileSync("git", ["log", "--oneline", flight.branch!], { cwd: repo, encoding: "utf8" })).toMatch(/Integrate task #\d+/);
    expect(checkoutState(repo)).toEqual(before);
    expect(suitePasses(repo)).toBe(false);

    // The conversation, in order, as the room shows it.
    const said = await db.select().from(messages).orderBy(asc(messages.id));
    const performatives = said.filter((m) => m.senderId !== human.id).map((m) => `${m.performative}:${m.senderId}`);
    const order = [
      `INFORM:${team.orchestrator.principal.id}`,
      `DONE:${team.coders[0].principal.id}`,
      `ACCEPT:${team.reviewer.principal.id}`,
      `REQUEST:${team.orchestrator.principal.id}`,
      `DONE:${team.tester.principal.id}`,
      `DONE:${team.orchestrator.principal.id}`,
    ];
    let at = 0;
    for (const step of performatives) if (step === order[at]) at++;
    expect(at, `saw ${performatives.join(" ")}`).toBe(order.length);

    // The journal: the ACCEPT precedes the integration, which precedes the passing suite.
    const journal = await db
      .select({ id: events.id, kind: events.kind, data: events.data })
      .from(events)
      .where(inArray(events.kind, ["TaskReviewed", "TaskIntegrated", "SuiteRan"]))
      .orderBy(asc(events.id));
    expect(journal.map((e) => e.kind)).toEqual(["TaskReviewed", "TaskIntegrated", "SuiteRan"]);
    expect(journal[2].data).toMatchObject({ passed: true, status: "green" });

    // The goal waits for the human who set it.
    const [goal] = await db.select().from(tasks).where(eq(tasks.id, goalTask.id));
    expect(goal.status).toBe("review");
    expect(goal.approverId).toBe(human.id);

    // A clean flight shows no failure mode, in its own journal or the whole one, and the live monitor journals none.
    expect(await diagnoseFlight(db, flight.id)).toEqual([]);
    expect(diagnose(await loadEventsOfKinds(db, [...EVENT_KINDS]))).toEqual([]);
    expect(await sweepDiagnosisToTheEnd()).toBe(0);
    expect(await db.select().from(events).where(eq(events.kind, "DiagnosisFound"))).toEqual([]);

    // The bill is exact: per agent it equals an independent sum of the debits.
    const bill = await loadBill(db);
    const debits = await db.select().from(events).where(eq(events.kind, "BudgetDebited"));
    for (const member of [team.orchestrator, team.coders[0], team.reviewer, team.tester]) {
      const sum = debits.filter((d) => d.actor === member.principal.id).reduce((n, d) => n + (d.data as { amount: number }).amount, 0);
      expect(sum).toBeGreaterThan(0);
      expect(bill.agents.find((a) => a.agentId === member.principal.id)?.tokens).toBe(sum);
    }
  });
});

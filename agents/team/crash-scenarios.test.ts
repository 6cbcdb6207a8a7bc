// The four crashes of the seed's §20.5, administered one at a time to the real harness (scripted roles,
// a scratch repository, the real test runner): each flight's journal yields exactly its own MAST finding —
// duplicate work across tasks is task derailment (FM-2.3), the premature done is premature termination
// (FM-3.1), the absorbed flake a repeated step (FM-1.3), the silent reviewer ignored input (FM-2.5). The
// clean flight yields none (flight.test.ts); the other modes' scenarios are in diagnosis-scenarios.test.ts.
import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, messages } from "../../db/schema";
import { manualClock } from "../../domain/clock";
import { payloadOf } from "../../domain/journal/payloads";
import { getSystemPrincipal } from "../../domain/principals/create-principal";
import { diagnoseFlight } from "../../domain/diagnosis/scope";
import type { ScriptEntry } from "../model/scripted";
import type { TeamContext } from "./context";
import { chaseSilentReviewers, DEFAULT_REVIEW_DEADLINE_MS } from "./roles/deadlines";
import { coderScript, PARSE_FILE } from "./scripts";
import { recordFlight } from "../../test/fixtures/recorded-flights";
import { flightJournal, flightTaskIds, launchScratchFlight, settledStatus, startWorker, suitePasses, until } from "../../test/fixtures/team";
import { DEMO_TEST_COMMAND } from "./worker";
import { runTestsTool } from "../tools/run-tests";
import { dyingOnce } from "../../test/fixtures/runtime";

const findingsOf = (flightId: string) => diagnoseFlight(getDb(), flightId);
const done = (summary: string, evidence: string[]): ScriptEntry => ({ toolCalls: [{ name: "done", arguments: { summary, evidence } }] });

describe("the crash scenarios of §20.5, each with exactly its own finding", { timeout: 120_000 }, () => {
  it("vague subtask: two overlapping tasks, two coder runs edit src/parse.js → FM-2.3 task derailment", async () => {
    const { repo, team, flight } = await launchScratchFlight();
    // A terse decomposition: two tasks whose boundaries overlap, both pointing at the parser.
    const vague = (title: string) => ({
      name: "create_task",
      arguments: { title, description: `The parser is ${PARSE_FILE}.`, acceptance_criteria: "The parser handles empty input; the tests pass." },
    });
    const worker = startWorker({
      scripts: {
        orchestrator: () => [
          { text: "Fix the parser, and make it handle empty input.", toolCalls: [vague("Fix the parser"), vague("Handle empty input in the parser")] },
          done("Planned two tasks.", ["2 tasks created"]),
        ],
      },
    });
    const status = await until("the flight to settle", () => settledStatus(flight.id));
    await worker.stop();
    expect(status).toBe("green");
    expect(suitePasses(repo, flight.branch)).toBe(true);

    const findings = await findingsOf(flight.id);
    expect(findings.map((f) => f.mode)).toEqual(["FM-2.3"]);
    await recordFlight(flight.id, {
      name: "fm-2.3-overlapping-tasks",
      story: "two overlapping tasks: two coder runs edit src/parse.js",
      careful: false,
      tasks: 2,
      planted: ["FM-2.3"],
    });
    // Both landed on the branch: past the gates, so high.
    expect(findings[0]).toMatchObject({ severity: "high", category: 2, runIds: [expect.any(String), expect.any(String)], agents: [team.coders[0].principal.id] });
    expect(findings[0].sentence).toMatch(new RegExp(`^coder's run on #\\d+ wrote ${PARSE_FILE}, which #\\d+ had changed already$`));
  });

  it("premature done: the coder's first run ends done with no edit and no evidence → REJECT, rework, green; FM-3.1 premature termination", async () => {
    const { db, repo, team, flight } = await launchScratchFlight();
    let coderRuns = 0;
    const worker = startWorker({
      scripts: {
        // Confident and empty the first time; the rework after the REJECT is the competent script.
        coder: () => (coderRuns++ === 0 ? [{ text: "That should do it.", ...done("parse('') is fixed.", []) }] : coderScript()),
      },
    });
    const status = await until("the flight to settle", () => settledStatus(flight.id));
    await worker.stop();
    expect(status).toBe("green");
    expect(suitePasses(repo, flight.branch)).toBe(true);
    expect(coderRuns).toBe(2);

    const [, taskId] = await flightTaskIds(flight.id);
    const history = await db
      .select({ kind: events.kind, data: events.data })
      .from(events)
      .where(and(eq(events.taskId, taskId), inArray(events.kind, ["TaskReviewed", "TaskIntegrated"])))
      .orderBy(asc(events.id));
    expect(history.map((e) => (e.kind === "TaskReviewed" ? (e.data as { verdict: string }).verdict : e.kind))).toEqual(["reject", "accept", "TaskIntegrated"]);
    const said = await db.select().from(messages).where(eq(messages.taskId, taskId)).orderBy(asc(messages.id));
    expect(said.filter((m) => m.senderId === team.reviewer.principal.id).map((m) => m.performative)).toEqual(["REJECT", "ACCEPT"]);

    const findings = await findingsOf(flight.id);
    expect(findings.map((f) => f.mode)).toEqual(["FM-3.1"]);
    await recordFlight(flight.id, {
      name: "fm-3.1-premature-done",
      story: "the coder's first run ends done with no edit and no evidence; rejected, reworked, green",
      careful: false,
      tasks: 1,
      planted: ["FM-3.1"],
    });
    // The REJECT caught it, at the price of a round: medium.
    expect(findings[0]).toMatchObject({ severity: "medium", agents: [team.coders[0].principal.id] });
    expect(findings[0].sentence).toMatch(/^coder's run on #\d+ declared itself done \(“parse\(''\) is fixed\.”\) without running the tests and with no evidence$/);
  });

  it("flaky runner: the test runner dies by a signal once, the loop retries it, the flight goes green → FM-1.3 step repetition", async () => {
    // The coder's first test run dies by SIGKILL, in the sandbox; every later one runs clean. (The flight's first
    // run of all is its baseline, at the base commit, before the plan.)
    const { repo, team, flight } = await launchScratchFlight();
    const flaky = dyingOnce(1);
    const worker = startWorker({ testTool: (command) => flaky(runTestsTool({ command })) });
    const status = await until("the flight to settle", () => settledStatus(flight.id));
    await worker.stop();
    expect(status).toBe("green");
    expect(suitePasses(repo, flight.branch)).toBe(true);

    const findings = await findingsOf(flight.id);
    expect(findings.map((f) => f.mode)).toEqual(["FM-1.3"]);
    await recordFlight(flight.id, {
      name: "fm-1.3-flaky-runner",
      story: "the test runner dies by a signal once, the loop retries it, the flight goes green",
      careful: false,
      tasks: 1,
      planted: ["FM-1.3"],
    });
    expect(findings[0]).toMatchObject({ severity: "low", agents: [team.coders[0].principal.id] });
    // The flake is in the journal: the runner died, the loop retried, the retry passed.
    const journal = await flightJournal(flight.id);
    const shown = journal.filter((e) => findings[0].eventIds.includes(e.id) || (e.kind === "ToolRetried" && e.runId === findings[0].runIds[0]));
    expect(shown.map((e) => (e.kind === "ToolReturned" ? `${e.kind}:${payloadOf(e, "ToolReturned").observation.is_error ? "error" : "ok"}` : e.kind))).toEqual([
      "ToolReturned:error",
      "ToolRetried",
      "ToolReturned:ok",
    ]);
    expect(JSON.stringify(shown[0].data)).toContain("SIGKILL");
  });

  // Last in the file: it leaves a task waiting in review, which no later flight here should see.
  it("silent reviewer: the deadline passes, the reviewer is re-asked once, then the room is told → FM-2.5 ignored input", async () => {
    // The deadline is configuration (QUORUM_REVIEW_DEADLINE_SECONDS=120, as `quorum worker` would pass it); the
    // worker below keeps the default, which a worker on the system clock cannot reach while this test runs.
    const deadline = 120_000;
    expect(deadline).not.toBe(DEFAULT_REVIEW_DEADLINE_MS);
    const { db, human, team, flight } = await launchScratchFlight();
    // No reviewer in the team: the coder's DONE reaches it and nothing ever answers.
    const worker = startWorker({ roles: ["orchestrator", "coder", "tester"] });
    const [, taskId] = await until("the coder to submit for review", async () => {
      const ids = await flightTaskIds(flight.id);
      const [doneMsg] = ids[1]
        ? await db
            .select()
            .from(messages)
            .where(and(eq(messages.taskId, ids[1]), eq(messages.performative, "DONE")))
        : [];
      return doneMsg ? ids : null;
    });
    await worker.stop();

    const [{ submittedAt }] = await db
      .select({ submittedAt: events.t })
      .from(events)
      .where(and(eq(events.taskId, taskId), eq(events.kind, "TaskSubmitted")));
    const clock = manualClock(submittedAt);
    const ctx: TeamContext = { db, clock, team, model: null, testCommand: DEMO_TEST_COMMAND, reviewDeadlineMs: deadline, loadPrinciples: async () => [] };
    const chase = () => chaseSilentReviewers(ctx);

    clock.advance(deadline - 1_000);
    expect(await chase()).toBe(false); // not late yet
    clock.advance(2_000);
    expect(await chase()).toBe(true); // late: re-ask
    expect(await chase()).toBe(false); // once
    clock.advance(deadline - 1_000);
    expect(await chase()).toBe(false);
    clock.advance(2_000);
    expect(await chase()).toBe(true); // still silent: escalate to the room
    clock.advance(10 * deadline);
    expect(await chase()).toBe(false); // and only once

    const chased = await db
      .select()
      .from(events)
      .where(and(eq(events.taskId, taskId), inArray(events.kind, ["ReplyReasked", "ReplyEscalated"])))
      .orderBy(asc(events.id));
    expect(chased.map((e) => [e.kind, (e.data as { awaiting: string }).awaiting])).toEqual([
      ["ReplyReasked", team.reviewer.principal.id],
      ["ReplyEscalated", team.reviewer.principal.id],
    ]);
    const system = await getSystemPrincipal(db);
    const said = await db.select().from(messages).where(eq(messages.taskId, taskId)).orderBy(asc(messages.id));
    // (The plan's REQUEST to the coders is on the goal's thread.)
    expect(said.map((m) => [m.senderId, m.performative, m.toId])).toEqual([
      [team.coders[0].principal.id, "DONE", team.reviewer.principal.id],
      [team.orchestrator.principal.id, "REQUEST", team.reviewer.principal.id],
      [system.id, "REQUEST", human.id],
    ]);
    expect(said[2].room).toBe("general");
    expect(said[2].body).toMatch(/stuck in review: @reviewer did not answer/);

    const findings = await findingsOf(flight.id);
    expect(findings.map((f) => f.mode)).toEqual(["FM-2.5"]);
    await recordFlight(flight.id, {
      name: "fm-2.5-silent-reviewer",
      story: "the reviewer never answers; re-asked once, then the room is told",
      careful: false,
      tasks: 1,
      planted: ["FM-2.5"],
    });
    // Unanswered: the coder's DONE and the orchestrator's re-ask, which the reviewer never answered; the chase is the evidence too.
    const asked = await db
      .select()
      .from(events)
      .where(and(eq(events.taskId, taskId), inArray(events.kind, ["MessageSent", "ReplyReasked", "ReplyEscalated"])))
      .orderBy(asc(events.id));
    expect(findings[0].eventIds).toEqual(asked.filter((e) => e.kind !== "MessageSent" || (e.data as { to: string }).to === team.reviewer.principal.id).map((e) => e.id));
    expect(findings[0].sentence).toMatch(/^reviewer did not answer coder's DONE or orchestrator's REQUEST on #\d+, re-asked and then escalated$/);
    expect(findings[0].agents).toEqual([team.coders[0].principal.id, team.orchestrator.principal.id, team.reviewer.principal.id]);
  });
});

// One scripted scenario per MAST detector beyond §20.5's four (crash-scenarios.test.ts), each on the real harness:
// the scripted roles on the real loop, a scratch or fixture repository, the real sandboxed test runner. Each
// flight yields exactly its own mode and no other; a clean flight on a fixture repository yields none. The
// live monitor journals a high finding once, fires `diagnosis.found`, and puts it before the flight's human.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, tasks, webhookDeliveries } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { listWaiting } from "../../domain/desk/waiting";
import { sweepDiagnosis } from "../../domain/diagnosis/monitor";
import { diagnoseFlight } from "../../domain/diagnosis/scope";
import { readFlight } from "../../domain/flights/view";
import { payloadOf } from "../../domain/journal/payloads";
import { sweepExpiredLeases } from "../../domain/tasks/expire";
import { addWebhook } from "../../domain/webhooks/manage";
import { acceptingReviewer, twoFailuresRepo, twoFeaturesRepo } from "../../test/fixtures/repos";
import type { PlaybookCase } from "../../test/fixtures/model-playbook";
import { recordFlight } from "../../test/fixtures/recorded-flights";
import { byCase, call, done, reviewByRule } from "../../test/fixtures/script-steps";
import { flightTaskIds, launchScratchFlight, settledStatus, startWorker, suitePasses, sweepDiagnosisToTheEnd, until } from "../../test/fixtures/team";
import { createScratchRepo } from "../demo/scratch-repo";
import type { ScriptStep } from "../model/scripted";
import type { ScriptInput } from "./context";
import { coderScript, PARSE_FILE } from "./scripts";
import type { WorkerOptions } from "./worker";

const db = () => getDb();

/** A role's script per run: the n-th run gets `runs[n]` (the last repeats). */
function perRun(...runs: ((input: ScriptInput) => ScriptStep[])[]) {
  let n = 0;
  return (input: ScriptInput) => runs[Math.min(n++, runs.length - 1)](input);
}

/** Flies a scratch flight with the scripted team until it settles; returns its findings and where it ended. */
/** True in the suite's worktree (the flight's branch, checked out detached), false in a coder's (on its task's branch). */
const ON_SUITE = 'test -z "$(git branch --show-current)"';

async function fly(worker: Partial<WorkerOptions> = {}, launch: Parameters<typeof launchScratchFlight>[0] = {}) {
  const launched = await launchScratchFlight(launch);
  const team = startWorker({ releaseCoolDownMs: 0, ...worker });
  const status = await until("the flight to settle", () => settledStatus(launched.flight.id)).finally(() => team.stop());
  return { ...launched, status, findings: await diagnoseFlight(getDb(), launched.flight.id) };
}

describe("a scenario per MAST detector, each with exactly its own finding", { timeout: 120_000 }, () => {
  it("FM-1.2 disobey role specification: the reviewer reaches for edit_file, which its role does not have", async () => {
    const reviewer = (input: ScriptInput): ScriptStep[] => [call("edit_file", { path: PARSE_FILE, old_string: "a", new_string: "b" }), ...reviewByRule(input)];
    const { status, findings, flight } = await fly({ scripts: { reviewer } });
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-1.2"]);
    await recordFlight(flight.id, {
      name: "fm-1.2-reviewer-reaches-for-edit",
      story: "the reviewer reaches for edit_file, which its role does not have",
      careful: false,
      tasks: 1,
      planted: ["FM-1.2"],
    });
    expect(findings[0]).toMatchObject({
      severity: "low",
      sentence: expect.stringMatching(/^reviewer's run on #\d+ tried edit_file, which its role does not have \(its tools: verdict, done\)$/),
    });
  });

  it("FM-1.3 step repetition: the coder reads the parser twice with nothing changed between", async () => {
    const coder = (): ScriptStep[] => [call("read_file", { path: PARSE_FILE }), ...coderScript()];
    const { status, findings, flight } = await fly({ scripts: { coder } });
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-1.3"]);
    await recordFlight(flight.id, {
      name: "fm-1.3-reads-twice",
      story: "the coder reads the parser twice with nothing changed between",
      careful: false,
      tasks: 1,
      planted: ["FM-1.3"],
    });
    expect(findings[0].sentence).toMatch(/^coder's run on #\d+ called read_file \{"path":"src\/parse\.js"\} 2 times with nothing changed between$/);
  });

  it("FM-1.4 loss of conversation history: the coder's context drops its first reads, and it reads them again", async () => {
    // Notes long enough that ten reads of 200 lines fill half the context (100,000 tokens, ~4 characters each).
    const repo = createScratchRepo(join(execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim()));
    writeFileSync(join(repo, "NOTES.md"), Array.from({ length: 4_000 }, (_, i) => `${String(i).padStart(5, "0")} ${"a note on the parser ".repeat(5).trim()}`).join("\n"));
    execFileSync("git", ["-C", repo, "add", "NOTES.md"]);
    execFileSync("git", ["-C", repo, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-qm", "the notes"]);
    const reads = (from: number) => ({
      toolCalls: Array.from({ length: 10 }, (_, i) => ({ name: "read_file", arguments: { path: "NOTES.md", offset: from + i * 200, limit: 200 } })),
    });
    const coder = (): ScriptStep[] => [reads(1), reads(2_001), call("read_file", { path: "NOTES.md", offset: 1, limit: 200 }), ...coderScript().slice(1)];
    const { status, findings, flight } = await fly({ scripts: { coder } }, { repo, allowance: 5_000_000 });
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-1.4"]);
    await recordFlight(flight.id, {
      name: "fm-1.4-context-dropped",
      story: "the coder's context drops its first reads, and it reads them again",
      careful: false,
      tasks: 1,
      planted: ["FM-1.4"],
    });
    expect(findings[0]).toMatchObject({
      severity: "medium",
      sentence: expect.stringMatching(/^coder's run on #\d+ lost 1 earlier step from its context and did again what they held: read_file /),
    });
  });

  it("FM-1.5 unaware of termination: the coder's first run answers in prose twice and ends inconclusive; the next one finishes", async () => {
    const coder = perRun(
      () => [{ text: "Let me think about what empty means here." }, { text: "Perhaps nothing at all." }],
      () => coderScript(),
    );
    const { status, findings, flight } = await fly({ scripts: { coder } });
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-1.5"]);
    await recordFlight(flight.id, {
      name: "fm-1.5-prose-inconclusive",
      story: "the coder's first run answers in prose and ends inconclusive; the next one finishes",
      careful: false,
      tasks: 1,
      planted: ["FM-1.5"],
    });
    expect(findings[0].sentence).toMatch(/^coder's run on #\d+ ended inconclusive \(.+\) without calling done$/);
  });

  it("FM-2.1 conversation reset: the coder's lease lapses mid-run, and the task is started over in a fresh run", async () => {
    const { repo, flight, status, findings } = await (async () => {
      const launched = await launchScratchFlight({ testCommand: "sleep 2; exec node --test" });
      const team = startWorker({ releaseCoolDownMs: 0 });
      try {
        const [, taskId] = await until("the coder to run its tests", async () => {
          const ids = await flightTaskIds(launched.flight.id);
          if (!ids[1]) return null;
          const running = await db()
            .select()
            .from(events)
            .where(and(eq(events.taskId, ids[1]), eq(events.kind, "ToolDispatched")));
          return running.some((e) => payloadOf(e, "ToolDispatched").tool === "run_tests") ? ids : null;
        });
        // While its tests run, the coder's lease (only its: the orchestrator holds the goal's) lapses, and the sweeper returns the task to ready.
        await db()
          .update(tasks)
          .set({ leaseExpiresAt: new Date(Date.now() - 1_000) })
          .where(eq(tasks.id, taskId));
        expect((await sweepExpiredLeases(db(), systemClock)).expired.map((e) => e.taskId)).toEqual([taskId]);
        const status = await until("the flight to settle", () => settledStatus(launched.flight.id));
        return { ...launched, status, findings: await diagnoseFlight(db(), launched.flight.id) };
      } finally {
        await team.stop();
      }
    })();
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-2.1"]);
    await recordFlight(flight.id, {
      name: "fm-2.1-started-over",
      story: "the coder's lease lapses mid-run, and the task is started over in a fresh run",
      careful: false,
      tasks: 1,
      planted: ["FM-2.1"],
    });
    expect(findings[0].sentence).toMatch(/^coder started #\d+ over in a fresh run after its run lost the task's lease unfinished, instead of carrying that run on$/);
    expect(findings[0].runIds).toHaveLength(2);
    expect(suitePasses(repo, flight.branch)).toBe(true);
  });

  it("FM-2.5 ignored input: the coder submits again unchanged after a REJECT, and the reviewer lets it in", async () => {
    const reviewer = perRun(
      () => [call("verdict", { verdict: "reject", reason: "Add a comment that says why empty input has no rows." }), done("Reviewed: reject.")],
      reviewByRule,
    );
    const coder = perRun(
      () => coderScript(),
      () => [call("run_tests"), done("Nothing needed changing: the suite passes.")],
    );
    const { status, findings, flight } = await fly({ scripts: { coder, reviewer } });
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-2.5"]);
    await recordFlight(flight.id, {
      name: "fm-2.5-unchanged-resubmission",
      story: "the coder submits again unchanged after a REJECT, and the reviewer lets it in",
      careful: false,
      tasks: 1,
      planted: ["FM-2.5"],
    });
    expect(findings[0]).toMatchObject({ severity: "high", sentence: expect.stringMatching(/^coder submitted #\d+ again unchanged after reviewer rejected it \(Add a comment/) });
  });

  it("FM-2.6 reasoning-action mismatch: the coder says the tests pass while its last test run failed; the rule-following reviewer rejects", async () => {
    const wrong = { path: PARSE_FILE, old_string: "// Parses comma-separated lines", new_string: "// Parses comma-separated lines (and empty input)" };
    const coder = perRun(
      () => [call("read_file", { path: PARSE_FILE }), call("edit_file", wrong), call("run_tests"), done("parse('') returns [] now; all tests pass.")],
      () => coderScript(),
    );
    const { status, findings, flight } = await fly({ scripts: { coder } });
    expect(status).toBe("green");
    expect(findings.map((f) => f.mode)).toEqual(["FM-2.6"]);
    await recordFlight(flight.id, {
      name: "fm-2.6-claims-passing",
      story: "the coder says the tests pass while its last test run failed",
      careful: false,
      tasks: 1,
      planted: ["FM-2.6"],
    });
    expect(findings[0]).toMatchObject({
      severity: "medium",
      sentence: expect.stringMatching(/^coder's run on #\d+ said its tests pass \(“parse\(''\) returns \[\] now; all tests pass\.”\) but its last test run exited 1$/),
    });
  });

  it("FM-3.3 incorrect verification: accepted on a passing run, integrated, and the suite fails on the flight's branch", async () => {
    // A suite that fails only on the flight's branch (the tester's suite worktree, detached): the coder's run passes, the integrated branch does not.
    const { status, findings, flight } = await fly({}, { testCommand: `${ON_SUITE} && exit 1; exec node --test` });
    expect(status).toBe("red");
    expect(findings.map((f) => f.mode)).toEqual(["FM-3.3"]);
    await recordFlight(flight.id, {
      name: "fm-3.3-red-after-integration",
      story: "accepted on a passing run, integrated, and the suite fails on the flight's branch",
      careful: false,
      tasks: 1,
      planted: ["FM-3.3"],
    });
    expect(findings[0]).toMatchObject({
      severity: "high",
      sentence: expect.stringMatching(/^the suite failed \(exit code 1\) after #\d+ was accepted by reviewer and integrated: the review passed what the suite did not$/),
    });
  });

  it("FM-3.2 no verification: a rubber stamp accepts a red test run; live, the monitor journals it once, pages and puts it before the human", async () => {
    const stamp = () => [call("verdict", { verdict: "accept", reason: "LGTM" }), done("Approved.")];
    // The suite fails in the coder's worktree and passes on the flight's branch: the coder's honest red run, the branch green.
    // The monitor watches from here on (the flights above were before its first pass).
    await sweepDiagnosisToTheEnd();
    const launched = await launchScratchFlight({ testCommand: `${ON_SUITE} && exec node --test; exit 1` });
    const { flight, human } = launched;
    const hook = await addWebhook(db(), human, { url: "http://127.0.0.1:9/diagnosis", events: ["diagnosis.found"] }, systemClock);
    const team = startWorker({ scripts: { reviewer: stamp } });
    // The monitor sweeps as the flight flies, as the app's sweeper does.
    let sweeping = true;
    const monitor = (async () => {
      while (sweeping) {
        await sweepDiagnosis(db(), systemClock);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const journalledFor = () =>
      db()
        .select()
        .from(events)
        .where(and(eq(events.kind, "DiagnosisFound"), sql`${events.data}->>'flightId' = ${flight.id}`));
    const found = await until("the monitor to journal the finding", async () => {
      const rows = await journalledFor();
      return rows.length ? rows : null;
    }).finally(async () => {
      await until("the flight to settle", () => settledStatus(flight.id)).finally(() => team.stop());
      sweeping = false;
      await monitor;
    });
    expect(await settledStatus(flight.id)).toBe("green");
    expect((await diagnoseFlight(db(), flight.id)).map((f) => f.mode)).toEqual(["FM-3.2"]);
    await recordFlight(flight.id, { name: "fm-3.2-rubber-stamp", story: "a rubber stamp accepts a red test run", careful: false, tasks: 1, planted: ["FM-3.2"] });

    // Journalled once, high, with its evidence; further passes add nothing.
    await sweepDiagnosisToTheEnd();
    const journalled = await journalledFor();
    expect(journalled).toHaveLength(1);
    expect(journalled[0].id).toBe(found[0].id);
    const finding = payloadOf(journalled[0], "DiagnosisFound");
    expect(finding).toMatchObject({ flightId: flight.id, mode: "FM-3.2", severity: "high", key: expect.stringMatching(/^FM-3\.2:\d+@high$/) });
    expect(finding.sentence).toMatch(/^reviewer accepted #\d+ from coder with a test run that exited 1 behind it$/);
    expect(journalled[0].taskId).toBe(launched.goalTask.id);

    // It pages (diagnosis.found), shows on the flight's card and waits for the flight's human.
    const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id));
    expect(deliveries.map((d) => [d.type, d.eventId])).toEqual([["diagnosis.found", journalled[0].id]]);
    expect(JSON.parse(deliveries.find((d) => d.eventId === journalled[0].id)!.body)).toMatchObject({
      type: "diagnosis.found",
      data: { mode: "FM-3.2", severity: "high", flightId: flight.id, sentence: finding.sentence, kind: "DiagnosisFound" },
    });
    expect((await readFlight(db(), flight.id, human)).alerts).toEqual([
      expect.objectContaining({ mode: "FM-3.2", name: "No or incomplete verification", sentence: finding.sentence, key: finding.key.replace(/@high$/, "") }),
    ]);
    const waiting = await listWaiting(db(), human);
    expect(waiting.items.filter((i) => i.kind === "finding")).toEqual([
      expect.objectContaining({ kind: "finding", flightNumber: flight.number, goalNumber: launched.goalTask.number, mode: "FM-3.2", sentence: finding.sentence }),
    ]);
    expect(waiting.byPage["/board"]).toBe(2); // the finding and the goal's review
    expect(suitePasses(launched.repo, flight.branch)).toBe(true);
  });
});

/** The stand-in model's playbook, read by scripts: each coder run follows the case its task names. */

describe("clean flights stay clean", { timeout: 120_000 }, () => {
  it("a flight on a fixture repository, two coders at once, yields no finding and the monitor journals none", async () => {
    await sweepDiagnosisToTheEnd(); // the monitor watches from here on
    const fixture = twoFeaturesRepo();
    const { status, findings, flight } = await fly(
      { coders: 2, scripts: { orchestrator: () => fixture.orchestrator, coder: byCase(fixture.coder as PlaybookCase[]), reviewer: reviewByRule } },
      { repo: fixture.repo, testCommand: "node --test" },
    );
    expect(status).toBe("green");
    expect(findings).toEqual([]);
    await recordFlight(flight.id, { name: "careful-two-features", story: "two coders add a helper each, with its test; every run passes", careful: true, tasks: 2, planted: [] });
    await sweepDiagnosisToTheEnd();
    expect(
      await db()
        .select()
        .from(events)
        .where(and(eq(events.kind, "DiagnosisFound"), sql`${events.data}->>'flightId' = ${flight.id}`)),
    ).toEqual([]);
    expect(suitePasses(fixture.repo, flight.branch)).toBe(true);
  });

  it("two coders each fix one of two failing tests, each task naming its own: accepted on red runs, no finding", async () => {
    // The careful flight: each coder's run still fails on the other task's test until both are integrated.
    const fixture = twoFailuresRepo({ targets: true });
    const { status, findings, flight } = await fly(
      { coders: 2, scripts: { orchestrator: () => fixture.orchestrator, coder: byCase(fixture.coder as PlaybookCase[]), reviewer: () => acceptingReviewer } },
      { repo: fixture.repo, testCommand: "node --test" },
    );
    expect(status).toBe("green");
    expect(findings).toEqual([]);
    await recordFlight(flight.id, {
      name: "careful-two-failures-named",
      story: "two coders each fix one of two failing tests, each task naming its own; each run is red on the other's",
      careful: true,
      tasks: 2,
      planted: [],
    });
    const targets = await db()
      .select({ title: tasks.title, targetTests: tasks.targetTests, submitted: tasks.submittedTests })
      .from(tasks)
      .where(inArray(tasks.title, ["Make slug lower-case and dashed", "Make clamp keep numbers in range"]));
    expect(targets.map((t) => t.targetTests).sort()).toEqual([["clamp keeps a number in range"], ["slugs are lower-case and dashed"]]);
    // Each submission's run still failed the other task's test: the baseline's, and no target of its own.
    for (const task of targets) expect((task.submitted as { failed: string[] }).failed.length).toBeGreaterThan(0);
  });
});

// Five more flights for the labelled set (bench/flights/, test/fixtures/recorded-flights.ts), beside the scenario
// flights of diagnosis-scenarios and crash-scenarios: careful ones of one and two tasks, and sloppy ones. Each says
// what the monitor finds in it now.
import { describe, expect, it } from "vitest";
import { diagnoseFlight } from "../../domain/diagnosis/scope";
import type { PlaybookCase } from "../../test/fixtures/model-playbook";
import { recordFlight } from "../../test/fixtures/recorded-flights";
import { byCase, call, done, reviewByRule } from "../../test/fixtures/script-steps";
import { acceptingReviewer, twoFailuresRepo, twoFeaturesRepo } from "../../test/fixtures/repos";
import { launchScratchFlight, settledStatus, startWorker, until } from "../../test/fixtures/team";
import type { ScriptStep } from "../model/scripted";
import { getDb } from "../../db/client";
import { coderScript, PARSE_FILE } from "./scripts";
import type { WorkerOptions } from "./worker";

async function fly(worker: Partial<WorkerOptions>, launch: Parameters<typeof launchScratchFlight>[0] = {}) {
  const { flight } = await launchScratchFlight(launch);
  const team = startWorker({ releaseCoolDownMs: 0, ...worker });
  const status = await until("the flight to settle", () => settledStatus(flight.id)).finally(() => team.stop());
  return { flight, status, modes: (await diagnoseFlight(getDb(), flight.id)).map((f) => f.mode) };
}

describe("the labelled set's other flights", { timeout: 120_000 }, () => {
  it("careful, one task: the scripted team fixes the parser; nothing to find", async () => {
    const { flight, status, modes } = await fly({});
    expect(status).toBe("green");
    expect(modes).toEqual([]);
    await recordFlight(flight.id, {
      name: "careful-one-task",
      story: "the coder reads, edits, runs the tests to green; the rule reviewer accepts",
      careful: true,
      tasks: 1,
      planted: [],
    });
  });

  it("careful, two tasks, reviewed by a reader that accepts: nothing to find", async () => {
    const fixture = twoFeaturesRepo();
    const { flight, status, modes } = await fly(
      { coders: 2, scripts: { orchestrator: () => fixture.orchestrator, coder: byCase(fixture.coder as PlaybookCase[]), reviewer: () => acceptingReviewer } },
      { repo: fixture.repo, testCommand: "node --test" },
    );
    expect(status).toBe("green");
    expect(modes).toEqual([]);
    await recordFlight(flight.id, {
      name: "careful-two-features-accepted",
      story: "two coders add a helper each; the reviewer reads each diff and accepts",
      careful: true,
      tasks: 2,
      planted: [],
    });
  });

  it("careful, two tasks naming no target tests: each ACCEPT rests on a run red only on what was red at the baseline", async () => {
    const fixture = twoFailuresRepo();
    const { flight, status, modes } = await fly(
      { coders: 2, scripts: { orchestrator: () => fixture.orchestrator, coder: byCase(fixture.coder as PlaybookCase[]), reviewer: () => acceptingReviewer } },
      { repo: fixture.repo, testCommand: "node --test" },
    );
    expect(status).toBe("green");
    // Without targets, a run that repaired a test red at the baseline and broke nothing is careful work.
    expect(modes).toEqual([]);
    await recordFlight(flight.id, {
      name: "careful-two-failures-unnamed",
      story: "two coders each fix one of two failing tests; the plan names no target tests, so each run is red on the other's",
      careful: true,
      tasks: 2,
      planted: [],
    });
  });

  it("sloppy, two tasks: a coder claims the suite passes without changing anything, is accepted, and the suite ends red", async () => {
    const fixture = twoFailuresRepo();
    const idle: PlaybookCase = { when: "clamp keep", runs: [[call("run_tests", {}), done("clamp keeps numbers in range now; all tests pass.")]] };
    const coders = [(fixture.coder as PlaybookCase[])[0], idle];
    const { flight, status, modes } = await fly(
      { coders: 2, scripts: { orchestrator: () => fixture.orchestrator, coder: byCase(coders), reviewer: () => acceptingReviewer } },
      { repo: fixture.repo, testCommand: "node --test" },
    );
    expect(status).toBe("red");
    expect([...new Set(modes)].sort()).toEqual(["FM-2.6", "FM-3.2", "FM-3.3"]);
    await recordFlight(flight.id, {
      name: "sloppy-claims-without-fixing",
      story: "the clamp coder runs the tests, changes nothing and says they pass; the reviewer accepts; the suite ends red",
      careful: false,
      tasks: 2,
      planted: ["FM-2.6", "FM-3.2", "FM-3.3"],
    });
  });

  it("sloppy, one task: the coder edits and declares done without running the tests; rejected, then reworked to green", async () => {
    let runs = 0;
    const hasty = (): ScriptStep[] => [
      call("read_file", { path: PARSE_FILE }),
      call("edit_file", { path: PARSE_FILE, old_string: "export function", new_string: "// handles the empty string\nexport function" }),
      done("parse('') returns [] now.", ["edited src/parse.js"]),
    ];
    const { flight, status, modes } = await fly({ scripts: { coder: () => (runs++ === 0 ? hasty() : coderScript()), reviewer: reviewByRule } });
    expect(status).toBe("green");
    expect(modes).toEqual(["FM-3.1"]);
    await recordFlight(flight.id, {
      name: "sloppy-done-untested",
      story: "the coder's first run edits and declares done without running the tests",
      careful: false,
      tasks: 1,
      planted: ["FM-3.1"],
    });
  });
});

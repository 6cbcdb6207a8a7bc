// diagnose over a hand-made flight and its crashes, one per signal of every detector: the clean flight comes
// back clean, and each crash yields exactly its own mode and no other. (The same crashes on the real harness:
// agents/team/diagnosis-scenarios.test.ts.)
import { describe, expect, it } from "vitest";
import type { JournalRecord } from "../journal/load";
import { diagnose } from "./diagnose";
import { claimsPassingTests } from "./misalignment";
import { MODE_IDS } from "./modes";

const [HUMAN, ORCH, CODER, REVIEWER, TESTER] = [1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
const NAMES: Record<string, string> = { [HUMAN]: "ada", [ORCH]: "orchestrator", [CODER]: "coder", [REVIEWER]: "reviewer", [TESTER]: "tester" };
const KNOWN = { principals: new Map(Object.entries(NAMES)) };
const [GOAL, T1, T2] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"];
const FLIGHT = "44444444-4444-4444-8444-444444444444";
const ok = (result: unknown = { ok: true }) => ({ is_error: false, result });
const tests = (exitCode: number) => ok({ exitCode, passed: exitCode === 0, output: `# fail ${exitCode}` });
const flake = { is_error: true, reason: "the test runner died (exit code 137, SIGKILL) before it finished", recovery_hint: "again", transient: true };

type Crash =
  | "roleOverstep"
  | "repeat"
  | "flaky"
  | "duplicateRefusal"
  | "forgotten"
  | "inconclusive"
  | "abandoned"
  | "lapping"
  | "reset"
  | "derail"
  | "outsideReservation"
  | "unchangedResubmit"
  | "heldOver"
  | "silentReviewer"
  | "claimsPass"
  | "premature"
  | "noEvidence"
  | "rubberStamp"
  | "redSuite"
  | "carefulRed"
  | "wrongWork"
  | "overruled"
  | "carefulUnnamed"
  | "idleUnnamed";

/** The first flight, event by event (a plan, one task coded, reviewed, integrated, the suite green); a crash breaks it one way. */
function flight(crash?: Crash): JournalRecord[] {
  const events: JournalRecord[] = [];
  let seq = 0;
  const add = (kind: string, actor: string | null, data: object, extra: Partial<JournalRecord> = {}) => {
    const e = { id: events.length + 1, t: new Date(0), kind, actor, actorName: actor ? NAMES[actor] : null, runId: null, taskId: T1, turn: null, data, ...extra };
    events.push(e);
    return e;
  };
  const say = (from: string, data: { to?: string | null; performative?: string | null; body?: string; heldSeq?: number | null; mentions?: string[] }, taskId = T1) =>
    add("MessageSent", from, { room: "team", seq: ++seq, messageId: seq, to: null, performative: null, body: "…", mentions: [], heldSeq: null, ...data }, { taskId });
  /** A run: its calls are [tool, args, writes, observations] per turn. */
  const run = (agent: string, runId: string, taskId: string, tools: string[], turns: [string, object, string | null, object[]][][], end?: object, dropped: number[] = []) => {
    add("RunStarted", agent, { task: "…", tools: tools.map((name) => ({ name })), requestId: null }, { runId, taskId, turn: 0 });
    turns.forEach((calls, i) => {
      const turn = i + 1;
      add("ModelCalled", agent, { turn, mail: [], context: { messages: 2, estimatedTokens: 10, droppedSteps: dropped[i] ?? 0 } }, { runId, taskId, turn });
      calls.forEach(([tool, args, writes, observations], index) => {
        const callId = `c${turn}_${index}`;
        if (tools.includes(tool)) add("ToolDispatched", agent, { index, callId, tool, args, attempt: 1, writes }, { runId, taskId, turn });
        observations.forEach((observation, attempt) => {
          if (attempt > 0) add("ToolRetried", agent, { index, callId, tool, attempt: attempt + 1, after: "flake" }, { runId, taskId, turn });
          add("ToolReturned", agent, { index, callId, tool, attempt: attempt + 1, observation }, { runId, taskId, turn });
        });
      });
    });
    if (end) add("AgentFinished", agent, { result: { turns: turns.length, spent: 100, ...end } }, { runId, taskId, turn: turns.length });
  };
  const done = (summary: string, evidence = [summary]) => ({ status: "done", summary, evidence });
  const CODER_TOOLS = ["read_file", "edit_file", "run_tests", "done"];
  const read = (path = "src/parse.js"): [string, object, null, object[]] => ["read_file", { path }, null, [ok()]];
  const edit = (path = "src/parse.js"): [string, object, string, object[]] => ["edit_file", { path, old_string: "a", new_string: "b" }, path, [ok()]];
  const test = (...observations: object[]): [string, object, null, object[]] => ["run_tests", {}, null, observations.length ? observations : [tests(0)]];
  type Turn = [string, object, string | null, object[]][];
  const coderRun = (runId: string, taskId = T1, turns: Turn[] = [[read()], [edit()], [test()]], end: object | undefined = done("parse('') returns []; the suite passes.")) =>
    run(CODER, runId, taskId, CODER_TOOLS, turns, end);
  const review = (taskId: string, verdict: "accept" | "reject", number: number, runId = `run_review_${events.length}`, overstep = false) => {
    run(
      REVIEWER,
      runId,
      taskId,
      ["verdict", "done"],
      [
        [
          ...(overstep
            ? [
                ["edit_file", { path: "x" }, null, [{ is_error: true, reason: "there is no tool named 'edit_file'", recovery_hint: "use one of: verdict, done" }]] as [
                  string,
                  object,
                  null,
                  object[],
                ],
              ]
            : []),
          ["verdict", { verdict }, null, [ok()]],
        ],
      ],
      done(`Reviewed: ${verdict}.`),
    );
    add(
      "TaskReviewed",
      REVIEWER,
      {
        number,
        verdict,
        reason: verdict === "reject" ? "Show a passing test run." : "Fine.",
        ownerId: CODER,
        reviewerId: REVIEWER,
        fence: 1,
        ...(crash === "overruled" && verdict === "accept" && { overruled: { refusal: "target tests still failing: parse > empty", reason: "flaky upstream" } }),
      },
      { taskId },
    );
    say(REVIEWER, { to: CODER, performative: verdict.toUpperCase() }, taskId);
  };
  // The delta a submission with per-test results journals (quorum_submission_tests): clean for the careful coder,
  // its own target still failing where it fixed the wrong file.
  const judged =
    crash === "carefulRed"
      ? { passed: 3, failed: 1, baseline: true, delta: { fixed: ["parse > empty"], stillFailing: [], unseen: [], broken: [] } }
      : crash === "wrongWork" || crash === "overruled"
        ? { passed: 3, failed: 1, baseline: true, delta: { fixed: [], stillFailing: ["parse > empty"], unseen: [], broken: [] } }
        : crash === "carefulUnnamed"
          ? { passed: 3, failed: 1, baseline: true, delta: { fixed: [], stillFailing: [], unseen: [], broken: [], repaired: ["parse > empty"] } }
          : crash === "idleUnnamed"
            ? { passed: 3, failed: 2, baseline: true, delta: { fixed: [], stillFailing: [], unseen: [], broken: [], repaired: [] } }
            : undefined;
  const submit = (taskId = T1, number = 2) => {
    add("TaskSubmitted", CODER, { number, fence: 1, summary: "done", evidenceId: events.length, outputCount: 0, ...(judged && { tests: judged }) }, { taskId });
    say(CODER, { to: REVIEWER, performative: "DONE" }, taskId);
  };
  const integrateAndTest = (taskIds = [T1], passed = true) => {
    for (const taskId of taskIds) add("TaskIntegrated", ORCH, { flightId: FLIGHT, commit: "abc", acceptance: {} }, { taskId });
    add("SuiteStarted", TESTER, { flightId: FLIGHT, taskIds }, { taskId: GOAL });
    run(TESTER, "run_tester", GOAL, ["run_tests", "done"], [[test(tests(passed ? 0 : 1))]], done(passed ? "Ran the full suite: it passes." : "Ran the full suite: it fails."));
    add("SuiteRan", TESTER, { flightId: FLIGHT, passed, exitCode: passed ? 0 : 1, status: passed ? "green" : "red" }, { taskId: GOAL, runId: "run_tester" });
  };

  add("FlightLaunched", HUMAN, { flightId: FLIGHT, goal: "fix it", mode: "scripted" }, { taskId: GOAL });
  say(ORCH, { performative: "REQUEST", to: ORCH }, GOAL);
  run(ORCH, "run_plan", GOAL, ["list_files", "read_file", "create_task", "done"], [[["create_task", { title: "Fix" }, null, [ok()]]]], done("Planned.", ["1 task"]));
  add("TaskCreated", ORCH, { number: 2, title: "Fix", approverId: REVIEWER, parentId: GOAL, hasAcceptanceCriteria: true, leaseMinutes: null });
  if (crash === "derail")
    add("TaskCreated", ORCH, { number: 3, title: "Fix again", approverId: REVIEWER, parentId: GOAL, hasAcceptanceCriteria: true, leaseMinutes: null }, { taskId: T2 });
  if (crash === "outsideReservation")
    add("ReservationGranted", CODER, { reservationId: "r", fence: 1, scope: "default", patterns: ["src/lib/**"], mode: "exclusive", reason: "mine", expiresAt: "" });
  add("TaskClaimed", CODER, { number: 2, ownerId: CODER, fence: 1, outputCount: 0, via: "claim-next" });

  if (crash === "inconclusive") run(CODER, "run_drift", T1, CODER_TOOLS, [[], []], { status: "inconclusive", reason: "prose twice" });
  if (crash === "reset") {
    run(CODER, "run_lost", T1, CODER_TOOLS, [[read()], [edit()]]);
    add("LeaseExpired", null, { number: 2, ownerId: CODER, fence: 1, outputCount: 2 });
    add("TaskClaimed", CODER, { number: 2, ownerId: CODER, fence: 2, outputCount: 2, via: "claim-next" });
  }
  if (crash === "heldOver") {
    say(ORCH, { to: CODER, body: "keep the exported names" });
    add("GateRejected", CODER, {
      room: "team",
      gate: "freshness",
      reason: "stale",
      sender: CODER,
      senderName: "coder",
      to: null,
      bodyPreview: "…",
      figures: { cursor: seq - 1, unreadCount: 1, latestSeq: seq },
    });
    say(CODER, { heldSeq: seq, body: "starting" });
  }
  if (crash === "duplicateRefusal") {
    say(CODER, { body: "on it" });
    add("GateRejected", CODER, {
      room: "team",
      gate: "duplicate",
      reason: "duplicate",
      sender: CODER,
      senderName: "coder",
      to: null,
      bodyPreview: "on it",
      figures: { duplicateOfSeq: seq },
    });
  }
  if (crash === "lapping")
    add("GateRejected", CODER, {
      room: "team",
      gate: "lapping",
      reason: "lapping",
      sender: CODER,
      senderName: "coder",
      to: null,
      bodyPreview: "again",
      figures: { sent: 2, speakers: 2 },
    });

  const turns: Partial<Record<Crash, [string, object, string | null, object[]][][]>> = {
    repeat: [[read()], [read()], [edit()], [test()]],
    forgotten: [[read()], [read("README.md")], [read()], [edit()], [test()]],
    flaky: [[read()], [edit()], [test(flake, tests(0))]],
    premature: [[read()], [edit()]],
    claimsPass: [[read()], [edit()], [test(tests(1))]],
    // Its own test fixed; the suite still fails on another task's test, red since the base commit.
    carefulRed: [[read()], [edit()], [test(tests(1))]],
    wrongWork: [[read()], [edit()], [test(tests(1))]],
    overruled: [[read()], [edit()], [test(tests(1))]],
    // No target named: a run red only on what was red at the baseline, having repaired one of those, is careful.
    carefulUnnamed: [[read()], [edit()], [test(tests(1))]],
    idleUnnamed: [[read()], [edit()], [test(tests(1))]],
    rubberStamp: [[read()], [edit()], [test(tests(1))]],
    outsideReservation: [[read()], [edit()], [test()]],
  };
  const summary: Partial<Record<Crash, object>> = {
    premature: done("parse('') is fixed."),
    noEvidence: done("parse('') is fixed; the suite passes.", []),
    claimsPass: done("parse('') returns []; all tests pass."),
    carefulRed: done("parse('') returns []; its test passes."),
    wrongWork: done("parse('') should return [], but the suite still fails (exit code 1)."),
    overruled: done("parse('') should return [], but the suite still fails (exit code 1)."),
    carefulUnnamed: done("parse('') returns []; its test passes."),
    idleUnnamed: done("parse('') should return [], but the suite still fails (exit code 1)."),
    rubberStamp: done("parse('') should return [], but the suite still fails (exit code 1)."),
  };
  if (crash === "forgotten") run(CODER, "run_coder", T1, CODER_TOOLS, turns.forgotten!, done("parse('') returns []; the suite passes."), [0, 0, 1, 0, 0]);
  else coderRun("run_coder", T1, turns[crash!] ?? undefined, summary[crash!]);
  if (crash === "abandoned") {
    add("ReworkAbandoned", CODER, { rejections: 3 });
    return events;
  }
  submit();
  if (crash === "silentReviewer") {
    add("ReplyReasked", ORCH, { awaiting: REVIEWER });
    say(ORCH, { to: REVIEWER, performative: "REQUEST", body: "please review" });
    add("ReplyEscalated", ORCH, { awaiting: REVIEWER });
    return events;
  }
  if (crash === "claimsPass" || crash === "premature") {
    review(T1, "reject", 2);
    return events;
  }
  if (crash === "unchangedResubmit") {
    review(T1, "reject", 2);
    coderRun("run_rework", T1, [[test()]], done("Nothing to change; the suite passes."));
    submit();
  }
  review(T1, "accept", 2, undefined, crash === "roleOverstep");
  if (crash === "derail") {
    add("TaskClaimed", CODER, { number: 3, ownerId: CODER, fence: 1, outputCount: 0, via: "claim-next" }, { taskId: T2 });
    coderRun("run_coder_2", T2);
    submit(T2, 3);
    review(T2, "accept", 3);
  }
  integrateAndTest(crash === "derail" ? [T1, T2] : [T1], crash !== "redSuite");
  return events;
}

const CRASHES: Record<Crash, string> = {
  roleOverstep: "FM-1.2",
  repeat: "FM-1.3",
  flaky: "FM-1.3",
  duplicateRefusal: "FM-1.3",
  forgotten: "FM-1.4",
  inconclusive: "FM-1.5",
  abandoned: "FM-1.5",
  lapping: "FM-1.5",
  reset: "FM-2.1",
  derail: "FM-2.3",
  outsideReservation: "FM-2.3",
  unchangedResubmit: "FM-2.5",
  heldOver: "FM-2.5",
  silentReviewer: "FM-2.5",
  claimsPass: "FM-2.6",
  premature: "FM-3.1",
  noEvidence: "FM-3.1",
  rubberStamp: "FM-3.2",
  redSuite: "FM-3.3",
  carefulRed: "",
  wrongWork: "FM-3.2",
  overruled: "",
  carefulUnnamed: "",
  // Nothing repaired that was red at the baseline: the exit code judges the ACCEPT.
  idleUnnamed: "FM-3.2",
};

describe("diagnose", () => {
  it("finds nothing in the clean flight", () => {
    expect(diagnose(flight())).toEqual([]);
  });

  it("names each crash by its own mode, once, and nothing else", () => {
    for (const [crash, mode] of Object.entries(CRASHES) as [Crash, string][]) {
      expect(
        diagnose(flight(crash)).map((f) => f.mode),
        crash,
      ).toEqual(mode ? [mode] : []);
    }
  });

  it("has a detector for every mode but the four the journal cannot show", () => {
    const detected = new Set(Object.values(CRASHES).filter(Boolean));
    expect(MODE_IDS.filter((mode) => !detected.has(mode))).toEqual(["FM-1.1", "FM-2.2", "FM-2.4"]);
  });

  it("says who and what by name, grades by how far the failure got, and points at the events", () => {
    const byCrash = (crash: Crash) => {
      const events = flight(crash);
      const [found] = diagnose(events, KNOWN);
      const text = JSON.stringify(found.sentence);
      for (const id of [HUMAN, ORCH, CODER, REVIEWER, TESTER, GOAL, T1, T2]) expect(text, crash).not.toContain(id);
      for (const id of found.eventIds) expect(events.some((e) => e.id === id)).toBe(true);
      return { found, events };
    };
    const rubber = byCrash("rubberStamp").found;
    expect(rubber).toMatchObject({
      severity: "high",
      category: 3,
      categoryName: "Task verification and termination",
      name: "No or incomplete verification",
      agents: [REVIEWER, CODER],
    });
    expect(rubber.sentence).toBe("reviewer accepted #2 from coder with a test run that exited 1 behind it");
    // Where the submission named its tests, the finding names them: what the task was for, still red.
    expect(byCrash("wrongWork").found.sentence).toBe("reviewer accepted #2 from coder with target tests failing: parse > empty");
    expect(byCrash("claimsPass").found).toMatchObject({ severity: "medium", runIds: ["run_coder"] });
    expect(byCrash("claimsPass").found.sentence).toContain("coder's run on #2 said its tests pass");
    expect(byCrash("flaky").found).toMatchObject({ severity: "low", sentence: expect.stringContaining("run_tests failed transiently in coder's run on #2") });
    expect(byCrash("noEvidence").found.severity).toBe("high");
    expect(byCrash("derail").found).toMatchObject({ severity: "high", taskIds: [T2, T1], sentence: expect.stringContaining("wrote src/parse.js, which #2 had changed already") });
    expect(byCrash("silentReviewer").found.sentence).toBe("reviewer did not answer coder's DONE or orchestrator's REQUEST on #2, re-asked and then escalated");
    const reset = byCrash("reset");
    expect(reset.found.sentence).toBe("coder started #2 over in a fresh run after its run lost the task's lease unfinished, instead of carrying that run on");
    expect(reset.found.eventIds.map((id) => reset.events[id - 1].kind)).toEqual(["RunStarted", "LeaseExpired", "RunStarted"]);
    const forgotten = byCrash("forgotten");
    expect(forgotten.found.eventIds.map((id) => forgotten.events[id - 1].kind)).toEqual(["ToolDispatched", "ModelCalled", "ToolDispatched"]);
  });

  it("keeps a finding's key while the journal grows, and ignores its own findings", () => {
    const events = flight("claimsPass");
    const [early] = diagnose(events.slice(0, events.findIndex((e) => e.kind === "AgentFinished" && e.runId === "run_coder") + 1));
    const [later] = diagnose([...events, { id: 999, t: new Date(0), kind: "DiagnosisFound", actor: null, runId: null, taskId: T1, turn: null, data: { key: early.key } }]);
    expect(later.key).toBe(early.key);
    expect(diagnose(flight("unchangedResubmit")).map((f) => f.severity)).toEqual(["high"]);
  });

  it("reads claims of passing tests, not their denials", () => {
    for (const claim of ["parse('') now returns []; the suite passes.", "All tests pass", "run_tests: exit code 0", "Tests are green now"])
      expect(claimsPassingTests(claim), claim).toBe(true);
    for (const honest of [
      "parse('') should now return [], but the suite still fails (exit code 1).",
      "the tests did not pass",
      "Ran the full suite: it fails.",
      "Fixed the parser.",
    ])
      expect(claimsPassingTests(honest), honest).toBe(false);
  });
});

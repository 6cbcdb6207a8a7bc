// Fork replay: a recorded scripted run, re-lived up to a step and carried on with another script, ends
// differently — real tools on a scratch copy of its files — while the hub's journal and every repository
// stay exactly as they were.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { getDb } from "../db/client";
import { loadRunEvents, type JournalRecord } from "../domain/journal/load";
import { payloadOf } from "../domain/journal/payloads";
import { checkoutState, flightJournal, launchScratchFlight, settledStatus, startWorker, until } from "../test/fixtures/team";
import { forkCommand } from "../bin/replay";
import { forkClient, forkRun } from "./fork";
import { forkWorkspace } from "./fork-workspace";
import { hubRedaction } from "./run";
import { PARSE_FILE } from "./team/scripts";
import { DEMO_TEST_COMMAND } from "./team/worker";
import type { ForkScript } from "../domain/runs/fork-input";
import { startModelServer } from "../test/fixtures/model-server";

const BUGGY_LINE = "export function parse(text) {\n";
/** Another coder: returns null for the empty input, runs the tests, and says what it did. */
const NULL_SCRIPT: ForkScript = [
  {
    text: "Return null for an empty input.",
    toolCalls: [{ name: "edit_file", arguments: { path: PARSE_FILE, old_string: BUGGY_LINE, new_string: `${BUGGY_LINE}  if (text === "") return null;\n` } }],
  },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "done", arguments: { summary: "Tried returning null for an empty input.", evidence: ["run_tests"] } }] },
];

let runId: string;
let recorded: JournalRecord[];
let repo: string;
let clone: string;

/** The last event of a turn: what a fork after that turn keeps. */
const endOfTurn = (turn: number) => recorded.filter((e) => e.turn === turn).at(-1)!.id;
const everything = async () => JSON.stringify(await getDb().execute(sql`select id, kind, actor, task_id, run_id, turn, t, data from events order by id`));
const gitState = (dir: string) =>
  execFileSync("git", ["-C", dir, "for-each-ref", "--format=%(refname) %(objectname)"], { encoding: "utf8" }) +
  execFileSync("git", ["-C", dir, "status", "--porcelain"], { encoding: "utf8" });

async function fork(untilEvent: number, script: ForkScript) {
  const { client, continuedWith } = await forkClient(getDb(), recorded, { script }, {});
  const workspace = await forkWorkspace(getDb(), recorded, { defaultTestCommand: DEMO_TEST_COMMAND });
  const progress: string[] = [];
  const report = await forkRun(recorded, { until: untilEvent, client, continuedWith, workspace, redact: hubRedaction(getDb()), progress: (line) => progress.push(line) });
  return { report, progress };
}

beforeAll(async () => {
  const flown = await launchScratchFlight();
  repo = flown.repo;
  const worker = startWorker();
  try {
    await until("the flight to settle", () => settledStatus(flown.flight.id));
  } finally {
    await worker.stop();
  }
  const started = (await flightJournal(flown.flight.id)).find((e) => e.kind === "RunStarted" && payloadOf(e, "RunStarted").tools.some((t) => t.name === "edit_file"))!;
  runId = started.runId!;
  recorded = await loadRunEvents(getDb(), runId);
  clone = flown.flight.repo;
}, 120_000);

describe("fork replay", () => {
  it("re-lives the coder's run past its read, carries it on with another script, and ends differently", { timeout: 120_000 }, async () => {
    expect(payloadOf(recorded[0], "RunStarted").workspace?.tree).toMatch(/^[0-9a-f]{40}$/);
    const journalBefore = await everything();
    const [repoBefore, cloneBefore] = [checkoutState(repo), gitState(clone)];

    const { report, progress } = await fork(endOfTurn(1), NULL_SCRIPT);
    expect(report.prefixIdentical).toBe(true);
    expect(report.workspace).toMatch(/^a scratch copy of flight \d+'s files as run_\w+ found them/);
    // They part where the models part: the second turn's answer.
    const responded = recorded.findIndex((e) => e.kind === "ModelResponded" && e.turn === 2);
    expect(report.divergence).toMatchObject({ index: responded, original: { kind: "ModelResponded" }, fork: { kind: "ModelResponded" } });
    expect(report.divergence!.fork!.what).toContain("return null");
    // The recorded coder's fix passed its tests; the fork's, run for real in the sandbox, fails them.
    expect(report.original.some((s) => s.kind === "ToolReturned" && /^run_tests → exit code 0 \(passed\)/.test(s.what))).toBe(true);
    expect(report.fork.some((s) => s.kind === "ToolReturned" && /^run_tests → exit code [1-9]/.test(s.what))).toBe(true);
    expect(report.forkResult).toMatchObject({ status: "done", summary: "Tried returning null for an empty input." });
    expect(report.originalResult).toMatchObject({ status: "done" });
    expect(report.tokens.fork).toBeGreaterThan(0);
    expect(progress[0]).toBe(`re-living ${responded - 1} recorded events from the journal`);
    expect(progress).toContain("carrying the run on with a script of 3 responses");

    // Nothing of the hub or of any repository changed, to the byte.
    expect(await everything()).toBe(journalBefore);
    expect(JSON.stringify(await loadRunEvents(getDb(), runId))).toBe(JSON.stringify(recorded));
    expect(checkoutState(repo)).toEqual(repoBefore);
    expect(gitState(clone)).toBe(cloneBefore);
  });

  it("rebuilds the files from the run's start plus the writes it recorded before the fork point", { timeout: 120_000 }, async () => {
    const { report } = await fork(endOfTurn(2), [
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "done", arguments: { summary: "Checked.", evidence: [] } }] },
    ]);
    expect(report.workspace).toMatch(/then the 1 recorded write before the fork point re-applied$/);
    // With the recorded fix in place the suite passes in the fork too.
    expect(report.fork.find((s) => s.kind === "ToolReturned")!.what).toMatch(/^run_tests → exit code 0 \(passed\)/);
    expect(report.forkResult).toMatchObject({ status: "done", summary: "Checked." });
  });

  it("prints the first divergence and the two journals side by side from the command line", { timeout: 120_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), "quorum-fork-script-"));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const file = join(folder, "null.json");
    writeFileSync(file, JSON.stringify(NULL_SCRIPT));
    const lines: string[] = [];
    const code = await forkCommand(
      getDb(),
      runId,
      { until: String(endOfTurn(1)), script: file },
      (line) => lines.push(line),
      () => {},
    );
    expect(code).toBe(0);
    expect(lines[0]).toMatch(new RegExp(`^fork of run ${runId} after event ${endOfTurn(1)} \\(turn 1\\): \\d+ recorded events kept, re-lived from the journal: identical$`));
    expect(lines).toContain("continued with: a script of 3 responses");
    expect(lines.find((l) => l.startsWith("first divergence at event"))).toBeDefined();
    expect(lines.some((l) => l.startsWith("≠") && /return null/i.test(l))).toBe(true);
    expect(lines.find((l) => l.startsWith("fork result:"))).toContain("Tried returning null");
    // A script that is not one is refused with the reason, and nothing runs.
    writeFileSync(file, JSON.stringify([{ say: "hello" }]));
    const refused: string[] = [];
    expect(
      await forkCommand(
        getDb(),
        runId,
        { until: String(endOfTurn(1)), script: file },
        (line) => refused.push(line),
        () => {},
      ),
    ).toBe(1);
    expect(refused[0]).toMatch(/is not a script: 0: Unrecognized key: "say"/);
  });

  it("carries the run on with the live model instead, through its wire, still writing nothing to the hub", { timeout: 120_000 }, async () => {
    const server = await startModelServer();
    try {
      const journalBefore = await everything();
      const variables = { QUORUM_MODEL: "stand-in-gpt", QUORUM_OPENAI_BASE_URL: `${server.url}/v1`, QUORUM_OPENAI_API_KEY: "sk-stand-in" };
      const { client, continuedWith } = await forkClient(getDb(), recorded, { live: true }, variables);
      expect(continuedWith).toBe("the live model openai-compatible:stand-in-gpt");
      const workspace = await forkWorkspace(getDb(), recorded, { defaultTestCommand: DEMO_TEST_COMMAND });
      const report = await forkRun(recorded, { until: endOfTurn(1), client, continuedWith, workspace, redact: hubRedaction(getDb()) });
      // The stand-in thinks as the demo's coder does: it fixes the parser and the tests pass, for real, in the sandbox.
      expect(report.fork.some((s) => s.kind === "ToolReturned" && /^run_tests → exit code 0 \(passed\)/.test(s.what))).toBe(true);
      expect(report.forkResult).toMatchObject({ status: "done" });
      expect((await server.usage()).answered).toBeGreaterThanOrEqual(2);
      // Its usage is the server's, not the script's estimate: the journals part at the first debit at the latest.
      expect(report.divergence).not.toBeNull();
      expect(await everything()).toBe(journalBefore);
    } finally {
      await server.stop();
    }
  });
});

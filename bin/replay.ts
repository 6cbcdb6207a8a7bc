// `quorum replay RUN`: re-lives a run from its journal and says whether the events come out identical; with
// `--until EVENT --script FILE` (or `--live`) it forks the run there and shows how the two journals differ.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Db, Executor } from "../db/client";
import { checkForkable, forkClient, forkRun } from "../agents/fork";
import { forkWorkspace } from "../agents/fork-workspace";
import { replayRun } from "../agents/replay";
import { hubRedaction } from "../agents/run";
import { DEMO_TEST_COMMAND } from "../agents/team/worker";
import { quorumVariables, testCommandSetting, typedIn } from "../domain/config";
import { loadRunEvents } from "../domain/journal/load";
import { type ForkScript, forkScript } from "../domain/runs/fork-input";
import type { ForkReport, ForkStep } from "../domain/runs/fork-report";
import type { RunResult } from "../domain/runs/run-events";

/** A run's result in one line, as the CLI prints it. */
export function describeResult(result: RunResult | null): string {
  if (!result) return "none (the recording ends mid-run)";
  const tally = `${result.turns} turn${result.turns === 1 ? "" : "s"}, ${result.spent} tokens`;
  switch (result.status) {
    case "done":
      return `done — "${result.summary}" (${tally}; ${result.evidence.length} piece(s) of evidence)`;
    case "halted":
      return `halted — budget ${result.budgetId} spent ${result.budgetSpent} of ${result.allowance} (${tally})`;
    case "inconclusive":
    case "stopped":
      return `${result.status} — ${result.reason} (${tally})`;
    default:
      return `${result.status} (${tally})`;
  }
}

/** Prints the report; exit code 0 when the replay is identical, 1 when it diverges or there is no such run. */
export async function replayCommand(db: Executor, runId: string, print: (line: string) => void = console.log): Promise<number> {
  const events = await loadRunEvents(db, runId);
  if (events.length === 0) {
    print(`quorum: no run ${runId}`);
    return 1;
  }
  const report = await replayRun(events);
  print(`run ${runId}: replayed ${report.replayed} events against ${report.recorded} recorded`);
  print(`result: ${describeResult(report.result)}`);
  if (report.identical) {
    const note = report.ended === "recording_ended" ? ", up to where the recording ends" : "";
    print(`identical: yes (every event but ids and timestamps${note})`);
    return 0;
  }
  const { index, expected, actual } = report.divergence!;
  print(`identical: no — the streams part at event ${index + 1}`);
  print(`  recorded: ${expected ? JSON.stringify(expected) : "(nothing)"}`);
  print(`  replayed: ${actual ? JSON.stringify(actual) : "(nothing)"}`);
  return 1;
}

export interface ForkFlags {
  until?: string;
  script?: string;
  live?: boolean;
  root?: string;
}

/** A step in a column of the side-by-side view: its kind and what happened, cut to the column. */
function cell(step: ForkStep | undefined, width: number): string {
  const text = step ? `${step.kind}: ${step.what}` : "—";
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** The fork as the CLI prints it: the first divergence, then the two journals side by side from the fork point. */
export function forkLines(report: ForkReport): string[] {
  const lines = [
    `fork of run ${report.runId} after event ${report.until.eventId} (turn ${report.until.turn}): ${report.until.index + 1} recorded events kept, re-lived from the journal: ${report.prefixIdentical ? "identical" : "NOT identical"}`,
    `files: ${report.workspace}`,
    `continued with: ${report.continuedWith}`,
  ];
  const { divergence } = report;
  if (!divergence) lines.push("the fork wrote exactly what was recorded");
  else {
    lines.push(`first divergence at event ${divergence.index + 1}:`);
    lines.push(`  recorded: ${divergence.original ? `${divergence.original.kind}: ${divergence.original.what}` : "(nothing: the recording ends)"}`);
    lines.push(`  fork:     ${divergence.fork ? `${divergence.fork.kind}: ${divergence.fork.what}` : "(nothing: the fork ended)"}`);
  }
  const width = 58;
  lines.push("", `     ${"recorded".padEnd(width)} | fork`);
  const count = Math.max(report.original.length, report.fork.length);
  for (let i = 0; i < count; i++) {
    const [a, b] = [report.original[i], report.fork[i]];
    const differs = !a || !b || a.kind !== b.kind || a.what !== b.what;
    lines.push(`${differs ? "≠" : " "} ${String((a ?? b).index + 1).padStart(3)} ${cell(a, width)} | ${cell(b, width).trimEnd()}`);
  }
  lines.push("", `recorded result: ${describeResult(report.originalResult)}`, `fork result:     ${describeResult(report.forkResult)}`);
  lines.push(`tokens after the fork point: recorded ${report.tokens.original}, fork ${report.tokens.fork}`);
  return lines;
}

/** `quorum replay RUN --until EVENT --script FILE | --live [--root DIR]`: prints how the fork's journal differs; 0 once it ran. */
export async function forkCommand(
  db: Db,
  runId: string,
  flags: ForkFlags,
  print: (line: string) => void = console.log,
  progress: (line: string) => void = console.error,
): Promise<number> {
  const until = Number(flags.until);
  if (!Number.isInteger(until) || until < 1 || (flags.script === undefined) === (flags.live !== true)) {
    print("quorum: fork with --until EVENT (an event id of the run) and either --script FILE or --live");
    return 1;
  }
  const events = await loadRunEvents(db, runId);
  if (events.length === 0) {
    print(`quorum: no run ${runId}`);
    return 1;
  }
  let script: ForkScript | undefined;
  if (flags.script !== undefined) {
    const path = resolve(typedIn(), flags.script);
    let parsed: ReturnType<typeof forkScript.safeParse>;
    try {
      parsed = forkScript.safeParse(JSON.parse(readFileSync(path, "utf8")));
    } catch (error) {
      print(`quorum: could not read the script ${path}: ${(error as Error).message}`);
      return 1;
    }
    if (!parsed.success) {
      print(`quorum: ${path} is not a script: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(the file)"}: ${i.message}`).join("; ")}`);
      return 1;
    }
    script = parsed.data;
  }
  checkForkable(events, until);
  const { client, continuedWith } = await forkClient(db, events, script ? { script } : { live: true }, quorumVariables());
  const workspace = await forkWorkspace(db, events, { root: flags.root && resolve(typedIn(), flags.root), defaultTestCommand: testCommandSetting() ?? DEMO_TEST_COMMAND });
  // Ctrl-C: the continuation stops at its next turn boundary and its scratch folder goes.
  const cancel = new AbortController();
  const interrupt = () => cancel.abort();
  process.once("SIGINT", interrupt);
  try {
    const report = await forkRun(events, { until, client, continuedWith, workspace, redact: hubRedaction(db), progress, signal: cancel.signal });
    for (const line of forkLines(report)) print(line);
    return cancel.signal.aborted ? 130 : 0;
  } finally {
    process.removeListener("SIGINT", interrupt);
  }
}

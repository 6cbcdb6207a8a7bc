// `quorum replay RUN`: re-lives a run from its journal and says whether the events come out identical.
import type { Executor } from "../db/client";
import { replayRun } from "../agents/replay";
import { loadRunEvents } from "../server/journal/load";
import type { RunResult } from "../server/runs/run-events";

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

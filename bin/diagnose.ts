// `quorum diagnose RUN|TASK`: the failure signatures in a run's journal (with its task's) or a task's.
import type { Executor } from "../db/client";
import { diagnose } from "../server/runs/diagnose";
import { loadRunEvents, loadTaskEvents, type JournalRecord } from "../server/journal/load";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run is diagnosed with its task's thread, where its duplicates and unanswered requests show. */
async function eventsFor(db: Executor, target: string): Promise<JournalRecord[]> {
  if (UUID.test(target)) return loadTaskEvents(db, target);
  const own = await loadRunEvents(db, target);
  const taskId = own.find((e) => e.kind === "RunStarted")?.taskId;
  if (!taskId) return own;
  const byId = new Map([...own, ...(await loadTaskEvents(db, taskId))].map((e) => [e.id, e]));
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Prints one line per finding; exit code 0 when clean, 2 when something was found, 1 when there is nothing to read. */
export async function diagnoseCommand(db: Executor, target: string, print: (line: string) => void = console.log): Promise<number> {
  const events = await eventsFor(db, target);
  if (events.length === 0) {
    print(`quorum: no run or task ${target}`);
    return 1;
  }
  const findings = diagnose(events);
  if (findings.length === 0) {
    print(`${target}: clean — no failure signature in ${events.length} events`);
    return 0;
  }
  print(`${target}: ${findings.length} finding${findings.length === 1 ? "" : "s"} in ${events.length} events`);
  for (const f of findings) print(`- ${f.signature}: ${f.summary} (events ${f.eventIds.join(", ")})`);
  return 2;
}

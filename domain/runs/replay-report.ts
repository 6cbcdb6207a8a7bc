// What a replay reports: whether re-living a run from its journal wrote the same events (agents/replay.ts
// computes it; the explorer and `quorum replay` show it).
import type { JournalRecord } from "../journal/load";
import type { RunResult } from "./run-events";

/** What two events must share to count as the same: everything but the id, the time and the run id. */
export interface Comparable {
  kind: string;
  actor: string | null;
  taskId: string | null;
  turn: number | null;
  data: unknown;
}

/** The part of an event a replay (or a fork) compares. */
export function comparable(event: JournalRecord): Comparable {
  // Through JSON, as jsonb stores it: undefined fields vanish on both sides.
  return { kind: event.kind, actor: event.actor, taskId: event.taskId, turn: event.turn, data: JSON.parse(JSON.stringify(event.data ?? {})) };
}

export interface ReplayReport {
  runId: string | null;
  identical: boolean;
  recorded: number;
  replayed: number;
  result: RunResult | null;
  /** `recording_ended`: the recorded run stops short (it is still running, or died and was never resumed). */
  ended: "finished" | "halted" | "stopped" | "recording_ended" | "diverged";
  divergence?: { index: number; expected: Comparable | null; actual: Comparable | null };
}

// The thread of a task: its messages, its board transitions and its runs' milestones, in journal order.
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { loadTaskEvents, type JournalRecord } from "../journal/load";
import { payloadOf } from "../journal/payloads";
import type { RunResult } from "../runs/run-events";

export const TRANSITION_KINDS = new Set(["TaskCreated", "TaskClaimed", "TaskOffered", "LeaseExpired", "TaskSubmitted", "TaskReviewed", "TaskReopened", "TaskCancelled"]);
const RUN_KINDS = new Set(["RunStarted", "AgentFinished", "BudgetExhausted", "RunStopped"]);

interface Base {
  eventId: number;
  t: string;
  actor: string | null;
  actorName: string | null;
}

export type ThreadEntry =
  | (Base & { type: "message"; messageId: number; room: string; seq: number; to: string | null; performative: string | null; body: string })
  | (Base & { type: "transition"; kind: string; data: unknown })
  | (Base & { type: "run"; kind: string; runId: string | null; status: RunResult["status"] | "started"; summary: string | null });

const iso = (t: string | Date) => (typeof t === "string" ? t : t.toISOString());

export function thread(events: readonly JournalRecord[], taskId: string): ThreadEntry[] {
  const entries: ThreadEntry[] = [];
  for (const e of events) {
    if (e.taskId !== taskId) continue;
    const base: Base = { eventId: e.id, t: iso(e.t), actor: e.actor, actorName: e.actorName ?? null };
    if (e.kind === "MessageSent") {
      const d = payloadOf(e, "MessageSent");
      entries.push({ ...base, type: "message", messageId: d.messageId, room: d.room, seq: d.seq, to: d.to ?? null, performative: d.performative ?? null, body: d.body });
    } else if (TRANSITION_KINDS.has(e.kind)) {
      entries.push({ ...base, type: "transition", kind: e.kind, data: e.data });
    } else if (RUN_KINDS.has(e.kind)) {
      const result = e.kind === "AgentFinished" || e.kind === "BudgetExhausted" || e.kind === "RunStopped" ? payloadOf(e, e.kind).result : null;
      const summary = result?.status === "done" ? result.summary : null;
      entries.push({ ...base, type: "run", kind: e.kind, runId: e.runId, status: result?.status ?? "started", summary });
    }
  }
  return entries.sort((a, b) => a.eventId - b.eventId);
}

/** The thread as `viewer` may read it: direct messages only for their two ends (and humans). */
export async function loadThread(db: Executor, taskId: string, viewer: Principal): Promise<ThreadEntry[]> {
  return thread(await loadTaskEvents(db, taskId, viewer), taskId);
}

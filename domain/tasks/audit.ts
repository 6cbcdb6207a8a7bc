// The audit of a task: who approved or rejected what, on which evidence — each verdict tied to the
// latest submission before it (a board submission, a run's `done`, or a DONE message).
import { eq } from "drizzle-orm";
import { taskEvidence } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { loadTaskEvents, type JournalRecord } from "../journal/load";
import { payloadOf } from "../journal/payloads";

export interface Submission {
  eventId: number;
  t: string;
  by: string | null;
  byName: string | null;
  via: "board" | "run" | "message";
  summary: string;
  /** The evidence itself: test output, a diff… (board evidence is read from its row by the loader). */
  evidence: string[];
  evidenceId: string | null;
}

export interface Verdict {
  eventId: number;
  t: string;
  by: string | null;
  byName: string | null;
  via: "review" | "message";
  verdict: "accept" | "reject";
  reason: string | null;
  /** The submission judged; null when a verdict came before any evidence (itself worth an audit's notice). */
  on: Submission | null;
}

export interface Audit {
  taskId: string;
  submissions: Submission[];
  verdicts: Verdict[];
  /** The latest verdict accepts. */
  accepted: boolean;
}

const iso = (t: string | Date) => (typeof t === "string" ? t : t.toISOString());

/** `evidenceById` holds the text of board evidence rows, which the journal names by id. */
export function audit(events: readonly JournalRecord[], taskId: string, evidenceById: Record<string, string> = {}): Audit {
  const submissions: Submission[] = [];
  const verdicts: Verdict[] = [];
  for (const e of events) {
    if (e.taskId !== taskId) continue;
    const who = { eventId: e.id, t: iso(e.t), by: e.actor, byName: e.actorName ?? null };
    const latest = () => submissions.at(-1) ?? null;
    if (e.kind === "TaskSubmitted") {
      const d = payloadOf(e, "TaskSubmitted");
      const evidenceId = d.evidenceId === undefined || d.evidenceId === null ? null : String(d.evidenceId);
      const evidence = evidenceId !== null && evidenceById[evidenceId] !== undefined ? [evidenceById[evidenceId]] : [];
      submissions.push({ ...who, via: "board", summary: d.summary, evidence, evidenceId });
    } else if (e.kind === "AgentFinished") {
      const result = payloadOf(e, "AgentFinished").result;
      if (result.status === "done") submissions.push({ ...who, via: "run", summary: result.summary, evidence: result.evidence, evidenceId: null });
    } else if (e.kind === "TaskReviewed") {
      const d = payloadOf(e, "TaskReviewed");
      verdicts.push({ ...who, via: "review", verdict: d.verdict, reason: d.reason ?? null, on: latest() });
    } else if (e.kind === "MessageSent") {
      const d = payloadOf(e, "MessageSent");
      if (d.performative === "DONE") submissions.push({ ...who, via: "message", summary: d.body, evidence: [], evidenceId: null });
      if (d.performative === "ACCEPT" || d.performative === "REJECT") {
        verdicts.push({ ...who, via: "message", verdict: d.performative === "ACCEPT" ? "accept" : "reject", reason: d.body, on: latest() });
      }
    }
  }
  return { taskId, submissions, verdicts, accepted: verdicts.at(-1)?.verdict === "accept" };
}

/** The audit as `viewer` may read it: a verdict or submission sent as a direct message only for its two ends (and humans). */
export async function loadAudit(db: Executor, taskId: string, viewer: Principal): Promise<Audit> {
  const rows = await db.select({ id: taskEvidence.id, evidence: taskEvidence.evidence }).from(taskEvidence).where(eq(taskEvidence.taskId, taskId));
  const evidenceById = Object.fromEntries(rows.map((r) => [String(r.id), r.evidence]));
  return audit(await loadTaskEvents(db, taskId, viewer), taskId, evidenceById);
}

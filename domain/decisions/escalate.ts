// Hands an undecided vote to the humans: status escalated, the envelope fixed, the default's clock started.
import { and, eq } from "drizzle-orm";
import { decisions } from "../../db/schema";
import type { Executor } from "../../db/client";
import { appendEvent } from "../journal/append";
import type { DecisionRow, TallyEntry } from "./decision-view";
import { formatEnvelope } from "./envelope";

export type EscalationReason = "timebox" | "tie";

/**
 * Runs inside the caller's transaction on a row it has locked. The escalation timebox starts now,
 * when humans are told, so a late sweeper never eats into the humans' time.
 */
export async function escalateDecision(tx: Executor, decision: DecisionRow, tally: TallyEntry[], reason: EscalationReason, now: Date): Promise<DecisionRow> {
  const deadline = new Date(now.getTime() + decision.escalationTimeboxSeconds * 1000);
  const envelope = formatEnvelope(decision, tally, deadline);
  const [row] = await tx
    .update(decisions)
    .set({ status: "escalated", escalatedAt: now, escalationDeadline: deadline, envelope })
    .where(and(eq(decisions.id, decision.id), eq(decisions.status, "open")))
    .returning();
  await appendEvent(tx, {
    kind: "DecisionEscalated",
    t: now,
    data: { decisionId: decision.id, number: decision.number, reason, tally, envelope, escalationDeadline: deadline.toISOString(), room: "general" },
  });
  return row;
}

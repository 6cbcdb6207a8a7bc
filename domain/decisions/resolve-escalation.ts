// A human settles an escalated decision with one option; agents are refused.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { decisions } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { announceDecision } from "./announce";
import { lockDecision, readBallots, tallyOf, toDecisionViews, type DecisionView } from "./decision-view";
import { requireBefore, requireHuman, requireOption, requireStatus } from "./guards";

export const resolveEscalationInput = z.strictObject({
  option: z.string().trim().min(1).max(200),
});
export type ResolveEscalationInput = z.infer<typeof resolveEscalationInput>;

export async function resolveEscalation(db: Db, caller: Principal, decisionId: string, input: ResolveEscalationInput, clock: Clock): Promise<DecisionView> {
  requireHuman(caller, "resolve escalations");
  const now = clock.now();
  const view = await db.transaction(async (tx) => {
    const decision = await lockDecision(tx, decisionId);
    requireStatus(decision, ["escalated"], "resolve");
    requireBefore(decision.escalationDeadline!, now, decision, "escalation timebox");
    requireOption(decision, input.option);
    const [resolved] = await tx
      .update(decisions)
      .set({ status: "resolved", outcome: input.option, resolvedBy: caller.id, decidedAt: now })
      .where(eq(decisions.id, decision.id))
      .returning();
    await appendEvent(tx, {
      kind: "EscalationResolved",
      actor: caller.id,
      t: now,
      data: {
        decisionId: decision.id,
        number: decision.number,
        option: input.option,
        wasDefault: input.option === decision.defaultOption,
        tally: tallyOf(decision.options, await readBallots(tx, [decision.id])),
        room: "general",
      },
    });
    return (await toDecisionViews(tx, [resolved]))[0];
  });
  await announceDecision(db, decisionId, clock);
  return view;
}

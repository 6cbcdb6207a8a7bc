// One ballot per voter: an option and its reasoning. At quorum the plurality closes the vote; a tie escalates.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { ballots, decisions } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { announceDecision } from "./announce";
import { lockDecision, pluralityOf, readBallots, tallyOf, toDecisionViews, type BallotView, type DecisionView } from "./decision-view";
import { escalateDecision } from "./escalate";
import { requireBefore, requireOption, requireParticipant, requireStatus } from "./guards";

export const castBallotInput = z.strictObject({
  option: z.string().trim().min(1).max(200),
  reasoning: z.string().trim().min(1, "a ballot carries its reasoning").max(4000),
});
export type CastBallotInput = z.infer<typeof castBallotInput>;

export type CastBallotResult = BallotView & { decision: DecisionView };

export async function castBallot(db: Db, caller: Principal, decisionId: string, input: CastBallotInput, clock: Clock): Promise<CastBallotResult> {
  requireParticipant(caller);
  const now = clock.now();
  const result = await db.transaction(async (tx) => {
    // The row lock serialises ballots per decision, so exactly one ballot is the one that reaches quorum.
    let decision = await lockDecision(tx, decisionId);
    requireStatus(decision, ["open"], "cast a ballot on");
    requireBefore(decision.timeboxAt, now, decision, "timebox");
    requireOption(decision, input.option);
    const [ballot] = await tx
      .insert(ballots)
      .values({ decisionId: decision.id, voterId: caller.id, option: input.option, reasoning: input.reasoning, castAt: now })
      .onConflictDoNothing()
      .returning();
    if (!ballot) throw fail.conflict("decision", "duplicate", `you already cast your ballot on D-${decision.number}; a ballot stands once cast`);
    await appendEvent(tx, {
      kind: "BallotCast",
      actor: caller.id,
      t: now,
      data: { decisionId: decision.id, number: decision.number, option: ballot.option, reasoning: ballot.reasoning },
    });
    const cast = await readBallots(tx, [decision.id]);
    if (cast.length >= decision.quorum) {
      const tally = tallyOf(decision.options, cast);
      const winner = pluralityOf(tally);
      if (winner === null) {
        decision = await escalateDecision(tx, decision, tally, "tie", now);
      } else {
        [decision] = await tx.update(decisions).set({ status: "closed", outcome: winner, decidedAt: now }).where(eq(decisions.id, decision.id)).returning();
        await appendEvent(tx, {
          kind: "DecisionClosed",
          t: now,
          data: { decisionId: decision.id, number: decision.number, outcome: winner, tally, room: "general" },
        });
      }
    }
    const [view] = await toDecisionViews(tx, [decision]);
    return { ...view.ballots.find((b) => b.id === ballot.id)!, decision: view };
  });
  if (result.decision.status !== "open") await announceDecision(db, decisionId, clock);
  return result;
}

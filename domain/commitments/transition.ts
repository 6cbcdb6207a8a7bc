// The owner moves a commitment along candidate → confirmed → fulfilled, or withdraws it; each move journalled.
import { eq } from "drizzle-orm";
import { commitments, type CommitmentStatus } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { EventKind } from "../journal/kinds";
import type { Principal } from "../principal";
import { lockCommitment, toCommitmentViews, type CommitmentView } from "./commitment-view";
import { requireOwner, requireStatus } from "./guards";

export interface Transition {
  action: string;
  from: CommitmentStatus[];
  to: CommitmentStatus;
  kind: EventKind;
}

export async function transitionCommitment(db: Db, caller: Principal, commitmentId: string, transition: Transition, reason: string | null, clock: Clock): Promise<CommitmentView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const commitment = await lockCommitment(tx, commitmentId);
    requireOwner(commitment, caller, transition.action);
    requireStatus(commitment, transition.from, transition.action);
    const [row] = await tx
      .update(commitments)
      .set(transition.to === "confirmed" ? { status: "confirmed", confirmedAt: now } : { status: transition.to, reason, finishedAt: now })
      .where(eq(commitments.id, commitment.id))
      .returning();
    await appendEvent(tx, {
      kind: transition.kind,
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: { commitmentId: row.id, number: row.number, from: commitment.status, to: row.status, ...(reason ? { reason } : {}) },
    });
    return (await toCommitmentViews(tx, [row], now))[0];
  });
}

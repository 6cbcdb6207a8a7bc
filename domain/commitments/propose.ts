// "I'll take it": a candidate commitment, outside the dependency graph until its owner confirms it.
import { z } from "zod";
import { commitments } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { toCommitmentViews, type CommitmentView } from "./commitment-view";
import { requireParticipant } from "./guards";

export const proposeCommitmentInput = z.strictObject({
  what: z.string().trim().min(1, "say what you will do").max(500),
  taskId: z.uuid().optional(),
  dueAt: z.iso.datetime({ offset: true }).optional(),
});
export type ProposeCommitmentInput = z.infer<typeof proposeCommitmentInput>;

export async function proposeCommitment(db: Db, caller: Principal, input: ProposeCommitmentInput, clock: Clock): Promise<CommitmentView> {
  requireParticipant(caller);
  const now = clock.now();
  const dueAt = input.dueAt ? new Date(input.dueAt) : null;
  if (dueAt && dueAt.getTime() <= now.getTime()) {
    const message = `a promise cannot be due in the past (${input.dueAt})`;
    throw fail.invalid("commitment", message, { issues: [{ code: "custom", path: ["dueAt"], message }] });
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(commitments)
      .values({ ownerId: caller.id, what: input.what, taskId: input.taskId ?? null, dueAt, createdAt: now })
      .returning();
    await appendEvent(tx, {
      kind: "CommitmentProposed",
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: { commitmentId: row.id, number: row.number, what: row.what, dueAt: row.dueAt?.toISOString() ?? null },
    });
    return (await toCommitmentViews(tx, [row], now))[0];
  });
}

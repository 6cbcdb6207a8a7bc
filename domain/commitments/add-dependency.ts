// "This waits on that": an edge between two confirmed commitments, refused when it would close a cycle.
import { z } from "zod";
import { commitmentDependencies } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { lockCommitment, toCommitmentViews, type CommitmentView } from "./commitment-view";
import { findWaitPath, lockGraph } from "./graph-lock";
import { requireStatus } from "./guards";

export const addDependencyInput = z.strictObject({
  blockerId: z.uuid(),
});
export type AddDependencyInput = z.infer<typeof addDependencyInput>;

/** The owner of the waiting commitment declares what it waits on; humans, who oversee the ledger, may too. */
export async function addDependency(db: Db, caller: Principal, blockedId: string, input: AddDependencyInput, clock: Clock): Promise<CommitmentView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    await lockGraph(tx);
    const blocked = await lockCommitment(tx, blockedId);
    if (caller.kind !== "human" && caller.id !== blocked.ownerId) {
      throw fail.forbidden("commitment", `only the owner of C-${blocked.number} or a human may say what it waits on`);
    }
    const blocker = await lockCommitment(tx, input.blockerId);
    requireStatus(blocked, ["confirmed"], "add a dependency to");
    requireStatus(blocker, ["confirmed"], "depend on");
    // Adding blocked ← blocker closes a cycle exactly when blocker already waits (transitively) on blocked.
    const back = await findWaitPath(tx, blocker.id, blocked.id);
    if (back) {
      const path = [blocked.id, ...back];
      throw fail.conflict("commitment", "cycle", `C-${blocked.number} cannot wait on C-${blocker.number}: that closes a cycle`, { path });
    }
    const [edge] = await tx
      .insert(commitmentDependencies)
      .values({ blockedId: blocked.id, blockerId: blocker.id, createdBy: caller.id, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!edge) throw fail.conflict("commitment", "duplicate", `C-${blocked.number} already waits on C-${blocker.number}`);
    await appendEvent(tx, {
      kind: "DependencyAdded",
      actor: caller.id,
      taskId: blocked.taskId,
      t: now,
      data: { blockedId: blocked.id, blockerId: blocker.id, blockedNumber: blocked.number, blockerNumber: blocker.number },
    });
    return (await toCommitmentViews(tx, [blocked], now))[0];
  });
}

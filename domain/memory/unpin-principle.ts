// A human removes a pin; a principle that two independent sources promoted stays in force.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { principles } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { requireHuman } from "./guards";
import { lockPrinciple, toPrincipleViews, type PrincipleView } from "./memory-view";

export const unpinPrincipleInput = z.strictObject({});

/** Removes a human's pin; a principle that two sources promoted stays in force. */
export async function unpinPrinciple(db: Db, caller: Principal, principleId: string, clock: Clock): Promise<PrincipleView> {
  requireHuman(caller, "unpin");
  const now = clock.now();
  return db.transaction(async (tx) => {
    const principle = await lockPrinciple(tx, principleId);
    if (!principle.pinnedAt) throw fail.conflict("principle", "wrong_status", "this principle is not pinned", { status: principle.promotedAt ? "promoted" : "inactive" });
    const [unpinned] = await tx.update(principles).set({ pinnedBy: null, pinnedAt: null }).where(eq(principles.id, principle.id)).returning();
    await appendEvent(tx, {
      kind: "PrincipleUnpinned",
      actor: caller.id,
      t: now,
      data: { principleId: unpinned.id, key: unpinned.key, stillActive: unpinned.promotedAt !== null },
    });
    return (await toPrincipleViews(tx, [unpinned]))[0];
  });
}

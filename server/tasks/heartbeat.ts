// Renews the owner's lease; the fence proves the caller still holds it.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { fenceField, requireOwnerWrite } from "./guards";
import { leaseEnd } from "./lease";
import { lockTask, readTaskView, type TaskView } from "./view";

export const heartbeatInput = z.strictObject({ fence: fenceField });
export type HeartbeatInput = z.infer<typeof heartbeatInput>;

/**
 * A lease that ran out but has not been swept yet can still be renewed by its owner: the fence,
 * not the clock, is what makes a late writer harmless, and nobody else holds the task yet.
 */
export async function heartbeat(db: Db, caller: Principal, taskId: string, input: HeartbeatInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    requireOwnerWrite(task, caller, input.fence, "renew the lease");
    const leaseExpiresAt = leaseEnd(task, now);
    await tx.update(tasks).set({ leaseExpiresAt, updatedAt: now }).where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "LeaseRenewed",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { fence: task.fence, leaseExpiresAt: leaseExpiresAt.toISOString() },
    });
    return readTaskView(tx, task.id);
  });
}

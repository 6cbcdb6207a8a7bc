// Renews the owner's lease; the fence proves the caller still holds it.
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { EventPayloads } from "../journal/payloads";
import type { Principal } from "../principal";
import { pipelinedTransaction } from "../raw-sql";
import { fenceField, requireOwnerWrite } from "./guards";
import { leaseEnd } from "./lease";
import { lockTaskForOwner, viewAfter } from "./owner-lock";
import type { TaskView } from "./view";

export const heartbeatInput = z.strictObject({ fence: fenceField });
export type HeartbeatInput = z.infer<typeof heartbeatInput>;

/**
 * A lease that ran out but has not been swept yet can still be renewed by its owner: the fence,
 * not the clock, is what makes a late writer harmless, and nobody else holds the task yet.
 * Two round trips: the lock and the facts with BEGIN, the renewal and LeaseRenewed with COMMIT.
 */
export async function heartbeat(db: Db, caller: Principal, taskId: string, input: HeartbeatInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return pipelinedTransaction(db, async ({ sql, commitWith }) => {
    const locked = await lockTaskForOwner(sql, taskId, caller.id);
    const { task } = locked;
    requireOwnerWrite(task, caller, input.fence, "renew the lease");
    const leaseExpiresAt = leaseEnd(task, now);
    const data: EventPayloads["LeaseRenewed"] = { fence: task.fence, leaseExpiresAt: leaseExpiresAt.toISOString() };
    await commitWith(sql`
      with renewed as (
        update tasks set lease_expires_at = ${leaseExpiresAt.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz where id = ${task.id}::uuid
      )
      insert into events (kind, actor, task_id, t, data)
      values ('LeaseRenewed', ${caller.id}::uuid, ${task.id}::uuid, ${now.toISOString()}::timestamptz, ${JSON.stringify(data)}::jsonb)`);
    return viewAfter(locked, { leaseExpiresAt, updatedAt: now });
  });
}

// A task goes back to ready: unowned, without a lease, offered to one principal or to anyone. The state
// machine (db/functions/quorum_tasks_guard.sql) says from where it may; this is what the move writes.
import { eq } from "drizzle-orm";
import { tasks } from "../../db/schema";
import type { Tx } from "../../db/client";

export async function backToReady(tx: Tx, taskId: string, now: Date, offeredTo: string | null = null): Promise<void> {
  await tx.update(tasks).set({ status: "ready", ownerId: null, leaseExpiresAt: null, offeredTo, updatedAt: now }).where(eq(tasks.id, taskId));
}

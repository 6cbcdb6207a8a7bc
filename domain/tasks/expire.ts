// The lease sweeper: expired tasks go back to ready (LeaseExpired) and are offered to the best present agent.
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { principals, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { getSystemPrincipal } from "../principals/create-principal";
import { closeFocusWindow } from "../rooms/focus";
import { postMessage } from "../rooms/post-message";
import { DEFAULT_ROOM } from "../rooms/rooms";
import { presentAgents, rankCandidates, type ScoredCandidate } from "./reassign";
import { quoted } from "../quoted-text";
import { backToReady } from "./back-to-ready";

const BATCH = 100;
/** One sweeper at a time across every app instance and worker. */
const SWEEP_LOCK = sql`hashtext('quorum:lease-sweep')`;

export interface ExpiredLease {
  taskId: string;
  number: number;
  title: string;
  fence: number;
  outputCount: number;
  previousOwnerId: string;
  previousOwnerName: string;
  offeredTo: Pick<ScoredCandidate, "id" | "name" | "score"> | null;
}

export interface SweepResult {
  /** False when another instance held the sweep lock; nothing was touched. */
  swept: boolean;
  expired: ExpiredLease[];
  /** Notices that could not be posted after the commit (the state change itself stands). */
  unannounced?: { taskId: string; reason: string }[];
}

async function sweepBatch(db: Db, now: Date): Promise<SweepResult> {
  return db.transaction(async (tx) => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`);
    if (!locked) return { swept: false, expired: [] };
    // SKIP LOCKED: a task whose owner is heartbeating right now is left for the next sweep.
    const due = await tx
      .select({ task: tasks, ownerName: principals.name })
      .from(tasks)
      .innerJoin(principals, eq(principals.id, tasks.ownerId))
      .where(and(eq(tasks.status, "in_progress"), lte(tasks.leaseExpiresAt, now)))
      .orderBy(asc(tasks.leaseExpiresAt))
      .limit(BATCH)
      .for("update", { of: tasks, skipLocked: true });
    if (due.length === 0) return { swept: true, expired: [] };
    const system = await getSystemPrincipal(tx);
    const candidates = await presentAgents(tx, now);
    const expired: ExpiredLease[] = [];
    for (const { task, ownerName } of due) {
      const ownerId = task.ownerId!;
      // The approver may not own it, and the holder that just let its lease lapse is not offered it back.
      const ranking = rankCandidates(candidates.filter((c) => c.id !== task.approverId && c.id !== ownerId));
      const winner = ranking[0] ?? null;
      await backToReady(tx, task.id, now, winner?.id ?? null);
      await appendEvent(tx, {
        kind: "LeaseExpired",
        actor: system.id,
        taskId: task.id,
        t: now,
        data: { number: task.number, ownerId, fence: task.fence, outputCount: task.outputCount, leaseExpiresAt: task.leaseExpiresAt?.toISOString() },
      });
      await closeFocusWindow(tx, ownerId, now);
      const previous = candidates.find((c) => c.id === ownerId);
      if (previous) previous.load -= 1;
      if (winner) {
        await appendEvent(tx, {
          kind: "TaskOffered",
          actor: system.id,
          taskId: task.id,
          t: now,
          data: {
            number: task.number,
            to: winner.id,
            toName: winner.name,
            ranking: ranking.slice(0, 5).map(({ id, name, score, load, successRate }) => ({ id, name, score, load, successRate })),
          },
        });
        // Until it claims, the offer counts as load, so one sweep spreads many expired tasks out.
        candidates.find((c) => c.id === winner.id)!.load += 1;
      }
      expired.push({
        taskId: task.id,
        number: task.number,
        title: task.title,
        fence: task.fence,
        outputCount: task.outputCount,
        previousOwnerId: ownerId,
        previousOwnerName: ownerName,
        offeredTo: winner && { id: winner.id, name: winner.name, score: winner.score },
      });
    }
    return { swept: true, expired };
  });
}

/**
 * The messages go out after the sweep commits: postMessage opens its own transaction (it locks the
 * room), and a notice must never announce a state that could still roll back. If the process dies
 * in between, nothing is lost that matters: the task is ready (anyone's claim-next takes it, the
 * offered agent's first) and the journal holds LeaseExpired and TaskOffered.
 */
async function announce(db: Db, lease: ExpiredLease, clock: Clock): Promise<void> {
  const system = await getSystemPrincipal(db);
  const resume = lease.outputCount === 1 ? "1 output item" : `${lease.outputCount} output items`;
  await postMessage(
    db,
    system,
    DEFAULT_ROOM,
    {
      body: lease.offeredTo
        ? `Your lease on task #${lease.number} ${quoted(lease.title)} expired and the task was reassigned: it is back in ready with ${resume}, offered to ${lease.offeredTo.name}. Your late writes with fence ${lease.fence} will be refused.`
        : `Your lease on task #${lease.number} ${quoted(lease.title)} expired, so it is back in ready with ${resume}. Your late writes with fence ${lease.fence} will be refused; claim it again to continue.`,
      performative: "INFORM",
      to: lease.previousOwnerName,
      taskId: lease.taskId,
    },
    clock,
  );
  if (!lease.offeredTo) return;
  await postMessage(
    db,
    system,
    DEFAULT_ROOM,
    {
      body: `Please take task #${lease.number} ${quoted(lease.title)}: its lease expired and it resumes from ${resume}. Claim it (your claim-next gets it first).`,
      performative: "REQUEST",
      to: lease.offeredTo.name,
      taskId: lease.taskId,
    },
    clock,
  );
}

/** Returns expired in-progress tasks to ready; the lead's scheduler calls this periodically, tests directly. */
export async function sweepExpiredLeases(db: Db, clock: Clock): Promise<SweepResult> {
  const now = clock.now();
  const result: SweepResult = { swept: true, expired: [] };
  for (;;) {
    const batch = await sweepBatch(db, now);
    if (!batch.swept) {
      // Another instance holds the lock: it sweeps what is left.
      if (result.expired.length === 0) return batch;
      break;
    }
    result.expired.push(...batch.expired);
    if (batch.expired.length < BATCH) break;
  }
  for (const lease of result.expired) {
    try {
      await announce(db, lease, clock);
    } catch (error) {
      // One failed notice must not silence the others; the journal already holds what happened.
      result.unannounced ??= [];
      result.unannounced.push({ taskId: lease.taskId, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

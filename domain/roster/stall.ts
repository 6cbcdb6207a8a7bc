// Stalled agents: a lease holder whose last heartbeat or output is older than half its lease. The
// sweeper journals AgentStalled once per stall (which fires the agent.stalled webhook) and tells the
// room which task it holds and when that lease runs out; the next heartbeat or output ends the stall.
import { and, eq, sql } from "drizzle-orm";
import { events, principals, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { getSystemPrincipal } from "../principals/create-principal";
import { postMessage } from "../rooms/post-message";
import { DEFAULT_ROOM } from "../rooms/rooms";
import { lastActivityOf, leaseLengthSql } from "../tasks/lease";
import { quoted } from "../quoted-text";
import { utcMinute } from "../utc-minute";

/** One stall sweeper at a time across every instance. */
const STALL_LOCK = sql`hashtext('quorum:stall-sweep')`;
const BATCH = 100;

export interface Stall {
  taskId: string;
  number: number;
  title: string;
  fence: number;
  agentId: string;
  agentName: string;
  lastActivityAt: Date;
  leaseExpiresAt: Date;
}

export interface StallSweep {
  swept: boolean;
  stalled: Stall[];
  /** Room notices that could not be posted after the commit (the AgentStalled event stands). */
  unannounced?: { taskId: string; reason: string }[];
}

/** Finds new stalls and journals each once; the room is told after the commit. */
export async function sweepStalledAgents(db: Db, clock: Clock): Promise<StallSweep> {
  const now = clock.now();
  const at = sql`${now.toISOString()}::timestamptz`;
  const leaseLength = leaseLengthSql();
  const lastActivity = sql`greatest(${tasks.updatedAt}, ${tasks.leaseExpiresAt} - ${leaseLength})`;
  const found = await db.transaction(async (tx) => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${STALL_LOCK}) as locked`);
    if (!locked) return null;
    const rows = await tx
      .select({ task: tasks, agentName: principals.name })
      .from(tasks)
      .innerJoin(principals, eq(principals.id, tasks.ownerId))
      .where(
        and(
          eq(tasks.status, "in_progress"),
          eq(principals.kind, "agent"),
          sql`${tasks.leaseExpiresAt} > ${at}`,
          sql`${lastActivity} + ${leaseLength} / 2 <= ${at}`,
          // Once per stall: no AgentStalled for this task since the holder last showed life.
          sql`not exists (select 1 from ${events} e where e.task_id = ${tasks.id} and e.kind = 'AgentStalled' and e.t >= ${lastActivity})`,
        ),
      )
      .orderBy(tasks.leaseExpiresAt)
      .limit(BATCH);
    const system = await getSystemPrincipal(tx);
    const stalls: Stall[] = [];
    for (const { task, agentName } of rows) {
      const stall: Stall = {
        taskId: task.id,
        number: task.number,
        title: task.title,
        fence: task.fence,
        agentId: task.ownerId!,
        agentName,
        lastActivityAt: lastActivityOf(task),
        leaseExpiresAt: task.leaseExpiresAt!,
      };
      await appendEvent(tx, {
        kind: "AgentStalled",
        actor: system.id,
        taskId: task.id,
        t: now,
        data: {
          agentId: stall.agentId,
          agentName,
          number: task.number,
          fence: task.fence,
          lastActivityAt: stall.lastActivityAt.toISOString(),
          leaseExpiresAt: stall.leaseExpiresAt.toISOString(),
          room: DEFAULT_ROOM,
        },
      });
      stalls.push(stall);
    }
    return stalls;
  });
  if (!found) return { swept: false, stalled: [] };
  const result: StallSweep = { swept: true, stalled: found };
  if (found.length === 0) return result;
  const system = await getSystemPrincipal(db);
  for (const stall of found) {
    try {
      await postMessage(
        db,
        system,
        DEFAULT_ROOM,
        {
          body: `@${stall.agentName} has gone quiet on task #${stall.number} ${quoted(stall.title)}: no heartbeat or output since ${utcMinute(stall.lastActivityAt)}, over half its lease. The lease expires at ${utcMinute(stall.leaseExpiresAt)} unless it heartbeats; then the task goes back to ready.`,
          performative: "INFORM",
          taskId: stall.taskId,
          payload: { stalled: stall.agentId, taskId: stall.taskId, leaseExpiresAt: stall.leaseExpiresAt.toISOString() },
        },
        clock,
      );
    } catch (error) {
      result.unannounced ??= [];
      result.unannounced.push({ taskId: stall.taskId, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

// The digest as the API offers it: read or flush one agent's digest (the agent itself, or a human).
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { focusWindows, principals } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { flushDigest, readDigest, type DigestView } from "./digest";

const agentIdParam = z.uuid();
export const flushDigestInput = z.strictObject({});

async function authorise(db: Executor, caller: Principal, agentId: string): Promise<void> {
  // A malformed id names no agent; checked here so it never reaches Postgres as a uuid.
  if (!agentIdParam.safeParse(agentId).success) throw fail.notFound("digest", `no agent with id '${agentId}'`);
  const [agent] = await db.select({ kind: principals.kind }).from(principals).where(eq(principals.id, agentId));
  if (agent?.kind !== "agent") throw fail.notFound("digest", `no agent with id ${agentId}`);
  if (caller.id !== agentId && caller.kind !== "human") {
    throw fail.forbidden("digest", "an agent reads and flushes only its own digest");
  }
}

export async function getAgentDigest(db: Executor, caller: Principal, agentId: string): Promise<DigestView> {
  await authorise(db, caller, agentId);
  return readDigest(db, agentId);
}

/**
 * Delivers what the digest holds now as one batch (DigestFlushed); the focus window stays open,
 * so later room messages queue again. An empty digest flushes nothing and journals nothing.
 */
export async function flushAgentDigest(db: Db, caller: Principal, agentId: string, clock: Clock): Promise<{ flushed: number[]; dropped: number }> {
  await authorise(db, caller, agentId);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [window] = await tx
      .select()
      .from(focusWindows)
      .where(and(eq(focusWindows.agentId, agentId), isNull(focusWindows.closedAt)))
      .for("update");
    if (!window) return { flushed: [], dropped: 0 };
    const result = await flushDigest(tx, window, now, caller.id === agentId ? "flushed_by_agent" : "flushed_by_human");
    return { flushed: result.messageIds, dropped: result.dropped };
  });
}

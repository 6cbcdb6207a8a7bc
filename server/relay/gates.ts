// The room's gates for agent senders, in DESIGN §5's order: rate → duplicate → freshness → lapping/two-tier.
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { messages } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principals/types";
import type { MessageView } from "../rooms/message-view";
import { checkFreshness } from "./freshness";
import { RATE_LIMIT, RATE_WINDOW_MS } from "./limits";
import { checkLoopGates, type TwoTierCap } from "./loop-gates";

export type GateName = "rate" | "duplicate" | "freshness" | "lapping" | "two_tier";

/** Why a post was refused, with the figures the verdict used (they go to the journal as they are). */
export type GateRefusal =
  | { gate: "rate"; sentInWindow: number; limit: number; windowMs: number; retryAfterMs: number }
  | { gate: "duplicate"; duplicateOfSeq: number }
  | {
      gate: "freshness";
      unread: MessageView[];
      unreadCount: number;
      cursor: number;
      latestSeq: number;
      tokenProblem?: "unknown" | "expired" | "used" | "newer_arrived";
    }
  | { gate: "lapping"; sent: number; speakers: number; sinceSeq: number }
  | { gate: "two_tier"; sent: number; cap: TwoTierCap; sinceSeq: number; humanAt: string };

export type GateVerdict = { pass: true; holdTokenId?: string; heldSeq?: number } | { pass: false; refusal: GateRefusal };

export interface GateInput {
  room: string;
  body: string;
  /** The resolved direct recipient; direct messages skip freshness. */
  toId: string | null;
  holdToken?: string;
}

/** Humans and the system principal are never gated; only agents are. */
export function isGated(caller: Principal): boolean {
  return caller.kind === "agent";
}

/** The advisory-lock namespace of the rate floor (reservations use 8451110, decisions and commitments 8451101–3). */
export const RATE_LOCK = 8451120;

/**
 * The floor counts an agent's messages in every room (DESIGN §5: per agent), not per room: an agent
 * in N rooms would otherwise post 30·N a minute. The room lock serialises one room only, so the
 * agent's posts queue on a lock of their own (always taken after the room's, and by nothing else
 * that then waits for a room: no cycle), and two rooms cannot both slip under the limit.
 */
async function checkRate(tx: Executor, agentId: string, now: Date): Promise<GateRefusal | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RATE_LOCK}, hashtext(${agentId}))`);
  const windowStart = new Date(now.getTime() - RATE_WINDOW_MS);
  const recent = await tx
    .select({ createdAt: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.senderId, agentId), gt(messages.createdAt, windowStart)))
    .orderBy(desc(messages.createdAt))
    .limit(RATE_LIMIT);
  if (recent.length < RATE_LIMIT) return null;
  // The oldest of the last 30 leaves the window first; then one more fits.
  const oldest = Math.min(...recent.map((r) => r.createdAt.getTime()));
  const retryAfterMs = Math.max(1, oldest + RATE_WINDOW_MS - now.getTime());
  return { gate: "rate", sentInWindow: recent.length, limit: RATE_LIMIT, windowMs: RATE_WINDOW_MS, retryAfterMs };
}

async function checkDuplicate(tx: Executor, agentId: string, room: string, body: string): Promise<GateRefusal | null> {
  // md5 lets the (room, sender, md5(body)) index find candidates; the body comparison decides.
  const [same] = await tx
    .select({ seq: messages.seq })
    .from(messages)
    .where(and(eq(messages.room, room), eq(messages.senderId, agentId), sql`md5(${messages.body}) = md5(${body})`, eq(messages.body, body)))
    .limit(1);
  return same ? { gate: "duplicate", duplicateOfSeq: same.seq } : null;
}

/**
 * Runs inside the posting transaction, after the room row is locked, so the verdict sees a
 * settled room and two concurrent posts cannot both slip under a limit. Reads only.
 */
export async function checkGates(tx: Executor, caller: Principal, input: GateInput, now: Date): Promise<GateVerdict> {
  if (!isGated(caller)) return { pass: true };
  const rate = await checkRate(tx, caller.id, now);
  if (rate) return { pass: false, refusal: rate };
  const duplicate = await checkDuplicate(tx, caller.id, input.room, input.body);
  if (duplicate) return { pass: false, refusal: duplicate };
  let held: { holdTokenId?: string; heldSeq?: number } = {};
  if (!input.toId) {
    const fresh = await checkFreshness(tx, caller.id, input.room, input.holdToken, now);
    if (!fresh.pass) {
      const { pass: _pass, ...figures } = fresh;
      return { pass: false, refusal: { gate: "freshness", ...figures } };
    }
    held = { holdTokenId: fresh.holdTokenId, heldSeq: fresh.heldSeq };
  }
  const loop = await checkLoopGates(tx, caller.id, input.room, now);
  if (!loop.pass) {
    const { pass: _pass, ...figures } = loop;
    return { pass: false, refusal: figures };
  }
  return { pass: true, ...held };
}

// The room's gates for agent senders, in DESIGN §5's order: rate → duplicate → freshness → lapping/two-tier.
// A pure decision over the facts read under the room lock (quorum_post_message, migration 0026): no database here.
import type { Principal } from "../principals/types";
import type { MessageView } from "../rooms/message-view";
import { decideFreshness, type FreshnessFacts, type TokenProblem } from "./freshness";
import { RATE_LIMIT, RATE_WINDOW_MS } from "./limits";
import { decideLoopGates, type LoopFacts, type TwoTierCap } from "./loop-gates";

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
      tokenProblem?: TokenProblem;
    }
  | { gate: "lapping"; sent: number; speakers: number; sinceSeq: number }
  | { gate: "two_tier"; sent: number; cap: TwoTierCap; sinceSeq: number; humanAt: string };

/** A refusal as decided: a stale one's unread messages are read afterwards, on the refusal's path only. */
export type DecidedRefusal = Exclude<GateRefusal, { gate: "freshness" }> | Omit<Extract<GateRefusal, { gate: "freshness" }>, "unread">;

export type GateVerdict = { pass: true; holdTokenId?: string; heldSeq?: number } | { pass: false; refusal: DecidedRefusal };

export interface GateInput {
  room: string;
  body: string;
  /** The resolved direct recipient; direct messages skip freshness. */
  toId: string | null;
  holdToken?: string;
}

/** Every fact the gates read, in one statement under the room lock and the sender's rate lock. */
export interface GateFacts extends FreshnessFacts, LoopFacts {
  /** The sender's latest messages (at most RATE_LIMIT) inside the rolling window, all rooms, and the oldest one's time. */
  rate: { sentInWindow: number; oldestMs: number | null };
  /** The seq of a byte-identical earlier body from the sender in the room. */
  duplicateOfSeq: number | null;
}

/** Humans and the system principal are never gated; only agents are. */
export function isGated(caller: Pick<Principal, "kind">): boolean {
  return caller.kind === "agent";
}

/** The advisory-lock namespace of the rate floor (reservations use 8451110, decisions and commitments 8451101–3). */
export const RATE_LOCK = 8451120;

/**
 * The floor counts an agent's messages in every room (DESIGN §5: per agent), not per room: an agent
 * in N rooms would otherwise post 30·N a minute. The room lock serialises one room only, so the
 * agent's posts queue on a lock of their own (RATE_LOCK, always taken after the room's, and by
 * nothing else that then waits for a room: no cycle), and two rooms cannot both slip under the limit.
 */
export function decideRate(rate: GateFacts["rate"], now: Date): Extract<GateRefusal, { gate: "rate" }> | null {
  if (rate.sentInWindow < RATE_LIMIT || rate.oldestMs === null) return null;
  // The oldest of the last 30 leaves the window first; then one more fits.
  const retryAfterMs = Math.max(1, rate.oldestMs + RATE_WINDOW_MS - now.getTime());
  return { gate: "rate", sentInWindow: rate.sentInWindow, limit: RATE_LIMIT, windowMs: RATE_WINDOW_MS, retryAfterMs };
}

/** The verdict on one post, from facts read while the room lock is held (so two posts never both slip under a limit). */
export function decideGates(caller: Pick<Principal, "kind">, input: Pick<GateInput, "toId" | "holdToken">, facts: GateFacts, now: Date): GateVerdict {
  if (!isGated(caller)) return { pass: true };
  const rate = decideRate(facts.rate, now);
  if (rate) return { pass: false, refusal: rate };
  if (facts.duplicateOfSeq !== null) return { pass: false, refusal: { gate: "duplicate", duplicateOfSeq: facts.duplicateOfSeq } };
  let held: { holdTokenId?: string; heldSeq?: number } = {};
  if (!input.toId) {
    const fresh = decideFreshness(facts, input.holdToken !== undefined, now);
    if (!fresh.pass) {
      const { pass: _pass, ...figures } = fresh;
      return { pass: false, refusal: { gate: "freshness", ...figures } };
    }
    held = { holdTokenId: fresh.holdTokenId, heldSeq: fresh.heldSeq };
  }
  const loop = decideLoopGates(facts, now);
  if (!loop.pass) {
    const { pass: _pass, ...figures } = loop;
    return { pass: false, refusal: figures };
  }
  return { pass: true, ...held };
}

// A refusal of the relay's gates as the database decides it (db/functions/quorum_post_gate_refusal.sql),
// and its words: the error the sender gets and the sentence every reader of GateRejected shows. Nothing is
// decided here; the gates, their order and their numbers live in SQL only.
import { z } from "zod";
import { fail, type QuorumError } from "../errors";
import { GATE_NAMES, type GateName } from "../journal/payloads";
import type { MessageView } from "./message-view";

export { GATE_NAMES, type GateName };

export const TOKEN_PROBLEMS = ["unknown", "expired", "used", "newer_arrived"] as const;
export type TokenProblem = (typeof TOKEN_PROBLEMS)[number];

const n = z.number().int();
/** The refusal's code, the JSON `error` the sender gets (`rate_limited`, `duplicate`, `stale`, `lapping`). */
const reason = z.string();

/** Which gate refused, its reason, and the figures its verdict used: what the SQL returns and GateRejected keeps. */
export const gateRefusal = z.discriminatedUnion("gate", [
  z.object({ gate: z.literal("rate"), reason, figures: z.object({ sentInWindow: n, limit: n, windowMs: n, retryAfterMs: n }) }),
  z.object({ gate: z.literal("duplicate"), reason, figures: z.object({ duplicateOfSeq: n }) }),
  z.object({
    gate: z.literal("freshness"),
    reason,
    figures: z.object({ cursor: n, unreadCount: n, latestSeq: n, tokenProblem: z.enum(TOKEN_PROBLEMS).nullable() }),
  }),
  z.object({ gate: z.literal("lapping"), reason, figures: z.object({ sent: n, speakers: n, sinceSeq: n }) }),
  z.object({
    gate: z.literal("two_tier"),
    reason,
    figures: z.object({ sent: n, cap: n, rounds: n, mean: z.number().nullable(), stdDev: z.number().nullable(), sinceSeq: n, humanAt: z.string() }),
  }),
]);
export type GateRefusal = z.infer<typeof gateRefusal>;

/** The refusal in words, naming the room; a stale one says what to do next in neutral terms (no route, no tool). */
export function refusalMessage(room: string, refusal: GateRefusal): string {
  switch (refusal.gate) {
    case "rate": {
      const f = refusal.figures;
      return `rate floor: ${f.sentInWindow} messages in #${room} in the last minute (the limit is ${f.limit}); retry in ${Math.ceil(f.retryAfterMs / 1000)} s`;
    }
    case "duplicate":
      return `you already posted exactly this in #${room} (seq ${refusal.figures.duplicateOfSeq}); say something new`;
    case "freshness": {
      const f = refusal.figures;
      const why = f.tokenProblem ? ` (your hold token: ${f.tokenProblem.replace("_", " ")})` : "";
      return `${f.unreadCount} unread message(s) from others in #${room} since your cursor (seq ${f.cursor})${why}: read them, then ack up to seq ${f.latestSeq} or retry with the hold token`;
    }
    case "lapping": {
      const f = refusal.figures;
      return `lapping: you have posted ${f.sent} message(s) in #${room} since the last human message, and only ${f.speakers} agent(s) spoke there; wait for another speaker or a human`;
    }
    case "two_tier": {
      const f = refusal.figures;
      return `two-tier floor: you have posted ${f.sent} message(s) in #${room} since the last human message; the cap while a human is here is ${f.cap}`;
    }
  }
}

/** What a stale refusal hands the sender besides its figures: the unread it inlines and its fresh hold token. */
export interface StaleHold {
  unread: MessageView[];
  holdToken: string;
}

/**
 * The error the sender receives. Its code is the refusal's reason, as the SQL named it (the rate floor's
 * is `rate_limited`, the code of every 429); a stale refusal carries the unread messages, the hold token
 * and the seq it is bound to, and a hint each surface words with its own operations.
 */
export function refusalError(room: string, refusal: GateRefusal, stale?: StaleHold): QuorumError {
  const message = refusalMessage(room, refusal);
  switch (refusal.gate) {
    case "rate":
      return fail.rateLimited("room", message, { retryAfterMs: refusal.figures.retryAfterMs });
    case "duplicate":
      return fail.conflict("room", refusal.reason, message, { duplicateOfSeq: refusal.figures.duplicateOfSeq });
    case "freshness": {
      const f = refusal.figures;
      if (!stale) throw new Error(`a stale refusal in #${room} came without its hold token`);
      return fail.conflict("room", refusal.reason, message, { unread: stale.unread, unreadCount: f.unreadCount, holdToken: stale.holdToken, holdSeq: f.latestSeq }, [
        { action: "ack", room, seq: f.latestSeq },
        { action: "retry_with_hold_token", room },
      ]);
    }
    case "lapping":
      return fail.conflict("room", refusal.reason, message, { sent: refusal.figures.sent, speakers: refusal.figures.speakers });
    case "two_tier":
      return fail.conflict("room", refusal.reason, message, { cap: refusal.figures.cap, sent: refusal.figures.sent });
  }
}

/**
 * A GateRejected's words. Events of v 1 (written in TypeScript) carry them as `message`; since v 2 the
 * database records the refusal and not its words, which are said here from the gate and the figures.
 */
export function gateRejectionMessage(event: { room: string; gate: string; reason: string; figures: unknown; message?: string }): string {
  return event.message ?? refusalMessage(event.room, gateRefusal.parse(event));
}

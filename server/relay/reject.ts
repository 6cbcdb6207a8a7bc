// Turns a gate refusal into its journal event (GateRejected) and the error the sender receives.
import type { Executor } from "../../db/client";
import { fail, type QuorumError } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import type { GateInput, GateRefusal } from "./gates";
import { issueHoldToken } from "./hold-tokens";

/** Enough of the refused body for a human to recognise a loop in the gate strip; never rendered as HTML. */
const PREVIEW_CHARS = 200;

function explain(refusal: GateRefusal, room: string): { error: QuorumError; figures: Record<string, unknown> } {
  switch (refusal.gate) {
    case "rate":
      return {
        error: fail.rateLimited(
          "room",
          `rate floor: ${refusal.sentInWindow} messages in #${room} in the last minute (the limit is ${refusal.limit}); retry in ${Math.ceil(refusal.retryAfterMs / 1000)} s`,
          { retryAfterMs: refusal.retryAfterMs },
        ),
        figures: { sentInWindow: refusal.sentInWindow, limit: refusal.limit, windowMs: refusal.windowMs, retryAfterMs: refusal.retryAfterMs },
      };
    case "duplicate":
      return {
        error: fail.conflict("room", "duplicate", `you already posted exactly this in #${room} (seq ${refusal.duplicateOfSeq}); say something new`, {
          duplicateOfSeq: refusal.duplicateOfSeq,
        }),
        figures: { duplicateOfSeq: refusal.duplicateOfSeq },
      };
    case "freshness": {
      const why = refusal.tokenProblem ? ` (your hold token: ${refusal.tokenProblem.replace("_", " ")})` : "";
      return {
        error: fail.conflict(
          "room",
          "stale",
          `${refusal.unreadCount} unread message(s) from others in #${room} since your cursor (seq ${refusal.cursor})${why}: read them, then ack up to seq ${refusal.latestSeq} or retry with the hold token`,
          { unread: refusal.unread, unreadCount: refusal.unreadCount },
          [
            { action: "ack", room, seq: refusal.latestSeq },
            { action: "retry_with_hold_token", room },
          ],
        ),
        figures: { cursor: refusal.cursor, unreadCount: refusal.unreadCount, latestSeq: refusal.latestSeq, tokenProblem: refusal.tokenProblem ?? null },
      };
    }
    case "lapping":
      return {
        error: fail.conflict(
          "room",
          "lapping",
          `lapping: you have posted ${refusal.sent} message(s) in #${room} since the last human message, and only ${refusal.speakers} agent(s) spoke there; wait for another speaker or a human`,
          { sent: refusal.sent, speakers: refusal.speakers },
        ),
        figures: { sent: refusal.sent, speakers: refusal.speakers, sinceSeq: refusal.sinceSeq },
      };
    case "two_tier":
      return {
        error: fail.conflict(
          "room",
          "lapping",
          `two-tier floor: you have posted ${refusal.sent} message(s) in #${room} since the last human message; the cap while a human is here is ${refusal.cap.cap}`,
          { cap: refusal.cap.cap, sent: refusal.sent },
        ),
        figures: {
          sent: refusal.sent,
          cap: refusal.cap.cap,
          rounds: refusal.cap.rounds,
          mean: refusal.cap.mean,
          stdDev: refusal.cap.stdDev,
          sinceSeq: refusal.sinceSeq,
          humanAt: refusal.humanAt,
        },
      };
  }
}

/**
 * Appends GateRejected (room, gate, reason, sender, figures) and, for a stale refusal, issues a
 * fresh hold token bound to the latest seq shown. The caller commits these, then throws the error.
 */
export async function recordRejection(tx: Executor, caller: Principal, input: GateInput & { taskId?: string | null }, refusal: GateRefusal, now: Date): Promise<QuorumError> {
  const { error, figures } = explain(refusal, input.room);
  if (refusal.gate === "freshness") {
    const token = await issueHoldToken(tx, caller.id, input.room, refusal.latestSeq, now);
    Object.assign(error.extra, { holdToken: token, holdSeq: refusal.latestSeq });
  }
  await appendEvent(tx, {
    kind: "GateRejected",
    actor: caller.id,
    taskId: input.taskId ?? null,
    t: now,
    data: {
      room: input.room,
      gate: refusal.gate,
      reason: error.code,
      message: error.message,
      sender: caller.id,
      senderName: caller.name,
      to: input.toId,
      bodyPreview: input.body.slice(0, PREVIEW_CHARS),
      figures,
    },
  });
  return error;
}

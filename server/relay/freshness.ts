// The freshness gate: no broadcasting over unread messages from others, unless a hold token says so.
import { and, count, desc, eq, gt, isNull, lte, ne, or } from "drizzle-orm";
import { messages, seenCursors } from "../../db/schema";
import type { Executor } from "../../db/client";
import { messageColumns, recipient, sender, toMessageView, type MessageView } from "../rooms/message-view";
import { UNREAD_SHOWN } from "./limits";

export async function cursorOf(db: Executor, principalId: string, room: string): Promise<number> {
  const [row] = await db
    .select({ seq: seenCursors.seq })
    .from(seenCursors)
    .where(and(eq(seenCursors.principalId, principalId), eq(seenCursors.room, room)));
  return row?.seq ?? 0;
}

/** Messages from others the principal can see in the room, past a seq (and up to one, when given). */
function unreadWhere(principalId: string, room: string, afterSeq: number, upToSeq?: number) {
  return and(
    eq(messages.room, room),
    gt(messages.seq, afterSeq),
    upToSeq === undefined ? undefined : lte(messages.seq, upToSeq),
    ne(messages.senderId, principalId),
    or(isNull(messages.toId), eq(messages.toId, principalId)),
  );
}

export async function unreadSince(db: Executor, principalId: string, room: string, afterSeq: number, upToSeq?: number): Promise<{ total: number; newest: MessageView[] }> {
  const where = unreadWhere(principalId, room, afterSeq, upToSeq);
  const [{ total }] = await db.select({ total: count() }).from(messages).where(where);
  if (total === 0) return { total, newest: [] };
  const rows = await db
    .select(messageColumns)
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .leftJoin(recipient, eq(recipient.id, messages.toId))
    .where(where)
    .orderBy(desc(messages.seq))
    .limit(UNREAD_SHOWN);
  return { total, newest: rows.map(toMessageView).reverse() };
}

/** What the freshness gate reads under the room lock (quorum_post_message, migration 0026). */
export interface FreshnessFacts {
  /** The sender's seen-cursor in the room (0 before its first ack). */
  cursor: number;
  /** Messages from others the sender can see past the cursor, and the newest one's seq. */
  unreadCount: number;
  latestUnreadSeq: number | null;
  /** The presented hold token as stored for this sender and room; null when none matches (or none was presented). */
  holdToken: { id: string; seq: number; used: boolean; expiresAtMs: number } | null;
}

export type TokenProblem = "unknown" | "expired" | "used" | "newer_arrived";

export type FreshnessVerdict =
  | { pass: true; holdTokenId?: string; heldSeq?: number }
  | { pass: false; unreadCount: number; cursor: number; latestSeq: number; tokenProblem?: TokenProblem };

/**
 * A broadcast passes when nothing from others lies past the sender's seen-cursor, or when it
 * carries a live hold token and nothing from others arrived after the token's seq. Decides only:
 * the token is spent by the write once every gate has passed.
 */
export function decideFreshness(facts: FreshnessFacts, presentedToken: boolean, now: Date): FreshnessVerdict {
  if (facts.unreadCount === 0 || facts.latestUnreadSeq === null) return { pass: true };
  const refusal = { pass: false as const, unreadCount: facts.unreadCount, cursor: facts.cursor, latestSeq: facts.latestUnreadSeq };
  if (!presentedToken) return refusal;
  const token = facts.holdToken;
  if (!token) return { ...refusal, tokenProblem: "unknown" };
  if (token.used) return { ...refusal, tokenProblem: "used" };
  if (token.expiresAtMs <= now.getTime()) return { ...refusal, tokenProblem: "expired" };
  if (refusal.latestSeq > token.seq) return { ...refusal, tokenProblem: "newer_arrived" };
  return { pass: true, holdTokenId: token.id, heldSeq: token.seq };
}

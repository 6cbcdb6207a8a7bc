// The freshness gate: no broadcasting over unread messages from others, unless a hold token says so.
import { and, count, desc, eq, gt, isNull, ne, or } from "drizzle-orm";
import { messages, seenCursors } from "../../db/schema";
import type { Executor } from "../../db/client";
import { messageColumns, recipient, sender, toMessageView, type MessageView } from "../rooms/message-view";
import { checkHoldToken } from "./hold-tokens";
import { UNREAD_SHOWN } from "./limits";

export async function cursorOf(db: Executor, principalId: string, room: string): Promise<number> {
  const [row] = await db
    .select({ seq: seenCursors.seq })
    .from(seenCursors)
    .where(and(eq(seenCursors.principalId, principalId), eq(seenCursors.room, room)));
  return row?.seq ?? 0;
}

/** Messages from others the principal can see in the room, past a seq. */
function unreadWhere(principalId: string, room: string, afterSeq: number) {
  return and(eq(messages.room, room), gt(messages.seq, afterSeq), ne(messages.senderId, principalId), or(isNull(messages.toId), eq(messages.toId, principalId)));
}

export async function unreadSince(db: Executor, principalId: string, room: string, afterSeq: number): Promise<{ total: number; newest: MessageView[] }> {
  const where = unreadWhere(principalId, room, afterSeq);
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

export type FreshnessVerdict =
  | { pass: true; holdTokenId?: string; heldSeq?: number }
  | {
      pass: false;
      unread: MessageView[];
      unreadCount: number;
      cursor: number;
      latestSeq: number;
      tokenProblem?: "unknown" | "expired" | "used" | "newer_arrived";
    };

/**
 * A broadcast passes when nothing from others lies past the sender's seen-cursor, or when it
 * carries a live hold token and nothing from others arrived after the token's seq. Reads only:
 * the token is spent by the caller once every gate has passed.
 */
export async function checkFreshness(tx: Executor, principalId: string, room: string, holdToken: string | undefined, now: Date): Promise<FreshnessVerdict> {
  const cursor = await cursorOf(tx, principalId, room);
  const unread = await unreadSince(tx, principalId, room, cursor);
  if (unread.total === 0) return { pass: true };
  const latestSeq = unread.newest[unread.newest.length - 1].seq;
  const refusal = { pass: false as const, unread: unread.newest, unreadCount: unread.total, cursor, latestSeq };
  if (!holdToken) return refusal;
  const check = await checkHoldToken(tx, principalId, room, holdToken, now);
  if (!check.ok) return { ...refusal, tokenProblem: check.problem };
  if (latestSeq > check.token.seq) return { ...refusal, tokenProblem: "newer_arrived" };
  return { pass: true, holdTokenId: check.token.id, heldSeq: check.token.seq };
}

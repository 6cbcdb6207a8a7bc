// The freshness gate's reads in TypeScript: a principal's seen-cursor, and the unread messages a stale
// refusal inlines. The gate itself is decided in SQL (db/functions/quorum_post_gate_refusal.sql).
import { and, desc, eq, gt, isNull, lte, ne, or } from "drizzle-orm";
import { messages, seenCursors } from "../../db/schema";
import type { Executor } from "../../db/client";
import { selectMessageViews, toMessageView, type MessageView } from "./message-view";

/** A stale refusal inlines at most this many unread messages, the newest ones (the one relay number TypeScript applies). */
export const UNREAD_SHOWN = 50;

export async function cursorOf(db: Executor, principalId: string, room: string): Promise<number> {
  const [row] = await db
    .select({ seq: seenCursors.seq })
    .from(seenCursors)
    .where(and(eq(seenCursors.principalId, principalId), eq(seenCursors.room, room)));
  return row?.seq ?? 0;
}

/**
 * The messages from others the principal can see in the room past `afterSeq` and up to `upToSeq` (the
 * refusal's cursor and the seq its hold token is bound to), the newest UNREAD_SHOWN, oldest first.
 */
export async function unreadShown(db: Executor, principalId: string, room: string, afterSeq: number, upToSeq: number): Promise<MessageView[]> {
  const rows = await selectMessageViews(db)
    .where(
      and(
        eq(messages.room, room),
        gt(messages.seq, afterSeq),
        lte(messages.seq, upToSeq),
        ne(messages.senderId, principalId),
        or(isNull(messages.toId), eq(messages.toId, principalId)),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(UNREAD_SHOWN);
  return rows.map(toMessageView).reverse();
}

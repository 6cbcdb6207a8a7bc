// Reads a room: ascending after a seq, or the latest tail; reading never moves a seen-cursor.
import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import { z } from "zod";
import { messages } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import type { Principal } from "../principal";
import { messagesVisibleTo } from "../journal/visibility";
import { selectMessageViews, toMessageView, type MessageView } from "./message-view";
import { getRoom } from "./rooms";

export const listMessagesQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;

export async function listMessages(db: Executor, caller: Principal, room: string, query: ListMessagesQuery): Promise<Page<MessageView>> {
  const limit = query.limit ?? 100;
  const ascending = query.after !== undefined;
  const where = and(
    eq(messages.room, room),
    messagesVisibleTo(caller),
    query.after !== undefined ? gt(messages.seq, query.after) : undefined,
    query.before !== undefined ? lt(messages.seq, query.before) : undefined,
  );
  // The room's existence (404) and its page are read together: one round trip's wait, not two.
  const [, rows] = await Promise.all([
    getRoom(db, room),
    selectMessageViews(db)
      .where(where)
      .orderBy(ascending ? asc(messages.seq) : desc(messages.seq))
      .limit(limit + 1),
  ]);
  const page = rows.slice(0, limit).map(toMessageView);
  const more = rows.length > limit;
  if (ascending) return more ? { items: page, next: page[page.length - 1].seq } : { items: page };
  // The tail is read newest first and shown oldest first; `next` pages further back (before=).
  page.reverse();
  return more ? { items: page, next: page[0].seq } : { items: page };
}

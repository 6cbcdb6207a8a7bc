// An agent's mail: what was delivered to it and it has not acked yet (see delivery.ts for "delivered").
import { and, asc, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import { messages, seenCursors } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { selectMessageViews, toMessageView, type MessageView } from "./message-view";
import { getRoom } from "./rooms";

export const inboxQuery = z.strictObject({
  /** Page on past this seq without acking (the cursor stays where it is). */
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export interface InboxItem extends MessageView {
  /** Sent to this principal directly, or naming it with an @mention. */
  addressed: boolean;
}

export interface InboxPage {
  items: InboxItem[];
  next?: number;
}

/**
 * Deliverable mail of `principal`, oldest first: messages broadcast or addressed to it, from
 * others, past its seen-cursor of their room, minus those held in its digest (queued while it
 * focuses, or dropped from a full digest). With `room` null, every room (paged by message id).
 * Reading never acks: the agent acks with POST /api/rooms/:room/cursor once it has acted.
 */
export async function readInbox(db: Executor, principal: Principal, room: string | null, query: InboxQuery = {}): Promise<InboxPage> {
  if (room !== null) await getRoom(db, room);
  const limit = query.limit ?? 100;
  const rows = await selectMessageViews(db)
    .leftJoin(seenCursors, and(eq(seenCursors.room, messages.room), eq(seenCursors.principalId, principal.id)))
    .where(
      and(
        room !== null ? eq(messages.room, room) : undefined,
        ne(messages.senderId, principal.id),
        or(isNull(messages.toId), eq(messages.toId, principal.id)),
        sql`${messages.seq} > coalesce(${seenCursors.seq}, 0)`,
        query.after !== undefined ? (room !== null ? gt(messages.seq, query.after) : gt(messages.id, query.after)) : undefined,
        sql`not exists (select 1 from digest_entries d where d.agent_id = ${principal.id} and d.message_id = ${messages.id} and d.state <> 'flushed')`,
      ),
    )
    .orderBy(room !== null ? asc(messages.seq) : asc(messages.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map((row) => {
    const view = toMessageView(row);
    return { ...view, addressed: view.to === principal.id || view.mentions.includes(principal.id) };
  });
  if (rows.length <= limit) return { items };
  const last = items[items.length - 1];
  return { items, next: room !== null ? last.seq : last.id };
}

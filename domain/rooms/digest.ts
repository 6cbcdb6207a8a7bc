// Digests: the queue of room messages held for a focusing agent, and its flush as one batch.
import { and, asc, eq, isNull } from "drizzle-orm";
import { digestEntries, focusWindows, messages } from "../../db/schema";
import type { Executor } from "../../db/client";
import { appendEvent } from "../journal/append";
import { messageColumns, recipient, sender, toMessageView, type MessageView } from "./message-view";

/** An agent's focus window: opened and closed by ./focus.ts, flushed here. */
export type FocusWindow = typeof focusWindows.$inferSelect;

// A digest holds at most digestCap messages (quorum_relay_limits): the post that queues one more drops the
// oldest, and counts them (quorum_post_message).

export interface FlushResult {
  messageIds: number[];
  dropped: number;
}

/**
 * Delivers a window's queued messages as one batch: they leave the digest (and enter the
 * agent's inbox), and the journal records the batch (DigestFlushed) and the delivery.
 */
export async function flushDigest(tx: Executor, window: FocusWindow, now: Date, reason: string): Promise<FlushResult> {
  const flushed = await tx
    .update(digestEntries)
    .set({ state: "flushed", settledAt: now })
    .where(and(eq(digestEntries.windowId, window.id), eq(digestEntries.state, "queued")))
    .returning({ messageId: digestEntries.messageId, room: digestEntries.room, seq: digestEntries.seq });
  flushed.sort((a, b) => a.messageId - b.messageId);
  const messageIds = flushed.map((f) => f.messageId);
  const dropped = window.dropped;
  if (messageIds.length === 0 && dropped === 0) return { messageIds, dropped };
  if (dropped > 0) await tx.update(focusWindows).set({ dropped: 0 }).where(eq(focusWindows.id, window.id));
  const rooms = [...new Set(flushed.map((f) => f.room))];
  await appendEvent(tx, {
    kind: "DigestFlushed",
    actor: window.agentId,
    taskId: window.taskId,
    t: now,
    data: { agentId: window.agentId, taskId: window.taskId, reason, messageIds, count: messageIds.length, dropped, rooms },
  });
  if (messageIds.length > 0) {
    await appendEvent(tx, {
      kind: "MessageDelivered",
      actor: window.agentId,
      t: now,
      data: { via: "digest", recipient: window.agentId, messageIds, rooms },
    });
  }
  return { messageIds, dropped };
}

export interface DigestView {
  agentId: string;
  focusing: boolean;
  taskId: string | null;
  openedAt: string | null;
  /** Queued messages, oldest first. */
  items: (MessageView & { queuedAt: string })[];
  /** Messages pushed out of the full digest since the last flush. */
  dropped: number;
}

/** What an agent's digest holds now; an agent without an open window has an empty one. */
export async function readDigest(db: Executor, agentId: string): Promise<DigestView> {
  const [window] = await db
    .select()
    .from(focusWindows)
    .where(and(eq(focusWindows.agentId, agentId), isNull(focusWindows.closedAt)));
  if (!window) return { agentId, focusing: false, taskId: null, openedAt: null, items: [], dropped: 0 };
  const rows = await db
    .select({ ...messageColumns, queuedAt: digestEntries.queuedAt })
    .from(digestEntries)
    .innerJoin(messages, eq(messages.id, digestEntries.messageId))
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .leftJoin(recipient, eq(recipient.id, messages.toId))
    .where(and(eq(digestEntries.windowId, window.id), eq(digestEntries.state, "queued")))
    .orderBy(asc(digestEntries.messageId));
  return {
    agentId,
    focusing: true,
    taskId: window.taskId,
    openedAt: window.openedAt.toISOString(),
    items: rows.map((r) => ({ ...toMessageView(r), queuedAt: r.queuedAt.toISOString() })),
    dropped: window.dropped,
  };
}

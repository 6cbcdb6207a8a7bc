// Digests: the queue of room messages held for a focusing agent, and its flush as one batch.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { digestEntries, focusWindows, messages } from "../../db/schema";
import type { Executor } from "../../db/client";
import { appendEvent } from "../journal/append";
import { messageColumns, recipient, sender, toMessageView, type MessageView } from "../rooms/message-view";

/** An agent's focus window: opened and closed by ./focus.ts, flushed here. */
export type FocusWindow = typeof focusWindows.$inferSelect;

/** A digest holds at most this many messages; the oldest are dropped first, and counted. */
export const DIGEST_CAP = 50;

/**
 * Queues a just-posted message in the digest of every focusing agent who would receive it,
 * except those in `passing` (mentioned, or everyone for a critical-path nudge). Runs inside the
 * posting transaction; returns the agents whose digest took the message.
 */
export async function holdForFocusingAgents(
  tx: Executor,
  message: { id: number; room: string; seq: number; senderId: string; toId: string | null },
  passing: string[] | "all",
  now: Date,
): Promise<string[]> {
  if (passing === "all") return [];
  // Locking the windows (in id order) serialises digest writes per agent across rooms, so the cap holds exactly.
  const windows = await tx
    .select({ id: focusWindows.id, agentId: focusWindows.agentId })
    .from(focusWindows)
    .where(
      and(
        isNull(focusWindows.closedAt),
        sql`${focusWindows.agentId} <> ${message.senderId}`,
        message.toId ? eq(focusWindows.agentId, message.toId) : undefined,
        passing.length ? sql`not (${focusWindows.agentId} = any(${sql.param(passing)}::uuid[]))` : undefined,
      ),
    )
    .orderBy(asc(focusWindows.id))
    .for("update");
  if (windows.length === 0) return [];
  await tx.insert(digestEntries).values(windows.map((w) => ({ windowId: w.id, agentId: w.agentId, messageId: message.id, room: message.room, seq: message.seq, queuedAt: now })));
  const windowIds = windows.map((w) => w.id);
  // Each post adds one entry per digest, so an overflow drops exactly the oldest queued one.
  await tx.execute(sql`
    with ranked as (
      select agent_id, message_id, window_id,
             row_number() over (partition by window_id order by message_id desc) as rn
      from digest_entries
      where window_id = any(${sql.param(windowIds)}::uuid[]) and state = 'queued'
    ), dropped as (
      update digest_entries d set state = 'dropped', settled_at = ${now.toISOString()}::timestamptz
      from ranked r
      where d.agent_id = r.agent_id and d.message_id = r.message_id and r.rn > ${DIGEST_CAP} and d.state = 'queued'
      returning d.window_id
    )
    update focus_windows f set dropped = f.dropped + c.n
    from (select window_id, count(*)::int as n from dropped group by window_id) c
    where f.id = c.window_id`);
  return windows.map((w) => w.agentId);
}

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

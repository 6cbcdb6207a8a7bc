// Delivery of a just-posted message: to agents' inboxes now, or into the digests of focusing agents.
//
// What "delivered" means for an agent: the message is in its inbox (server/relay/inbox.ts) —
// addressed to it or broadcast, from someone else, not yet acked by its seen-cursor, and not
// held in its digest. A message is delivered when the post commits, or, for an agent that was
// focusing, when its digest is flushed. Both moments append MessageDelivered (`via: "inbox"`
// listing the recipients, or `via: "digest"` with the batch), so the journal alone says who
// could have read what and when. Humans oversee every message and are not listed.
import { and, eq, ne } from "drizzle-orm";
import { principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import { appendEvent } from "../journal/append";
import { holdForFocusingAgents } from "./digest";

export interface PostedMessage {
  id: number;
  room: string;
  seq: number;
  senderId: string;
  toId: string | null;
  taskId: string | null;
  performative: string | null;
  mentions: string[];
}

/**
 * Runs inside the posting transaction. A direct @mention passes a focus window, and a
 * critical-path nudge (`nudge`) passes every window; everything else waits in the digest.
 */
export async function deliverMessage(tx: Executor, message: PostedMessage, options: { nudge?: boolean }, now: Date): Promise<void> {
  const held = await holdForFocusingAgents(tx, message, options.nudge ? "all" : message.mentions, now);
  const audience = await tx
    .select({ id: principals.id })
    .from(principals)
    .where(and(eq(principals.kind, "agent"), ne(principals.id, message.senderId), message.toId ? eq(principals.id, message.toId) : undefined));
  const heldSet = new Set(held);
  const recipients = audience.map((a) => a.id).filter((id) => !heldSet.has(id));
  if (recipients.length === 0 && held.length === 0) return;
  await appendEvent(tx, {
    kind: "MessageDelivered",
    actor: message.senderId,
    taskId: message.taskId,
    t: now,
    data: {
      via: "inbox",
      room: message.room,
      seq: message.seq,
      messageId: message.id,
      performative: message.performative,
      recipients,
      held,
      nudge: options.nudge === true,
    },
  });
}

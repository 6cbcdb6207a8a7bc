// A run's mail: what reached its agent since its last turn, folded into the next model call (seed 000 delivers
// mail at the top of each turn). Taken inside the transaction that journals the turn's ModelCalled, which records
// the mail it carried: delivered once, and never lost between the read and the journal.
import { and, desc, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { messages, principals, runMailCursors } from "../../db/schema";
import type { Tx } from "../../db/client";
import type { Clock } from "../clock";
import type { Mail } from "./run-events";

/** At most this many messages per turn, the newest: a flood of old mail would crowd out the work. */
export const MAIL_PER_TURN = 20;
/** A message longer than this is cut, saying so: mail steers, it does not carry files. */
export const MAIL_BODY_CHARS = 2_000;

export interface MailScope {
  /** The room whose human messages and open REQUESTs reach the agent (its flight's); null: only what names it. */
  room: string | null;
}

/**
 * What reaches an agent: messages sent to it, messages that @mention it, and — in its room — every human
 * message and every REQUEST to nobody in particular. Its own messages never. Without a cursor yet, the
 * agent's mail starts where the agent did (its principal's creation).
 */
export async function takeRunMail(tx: Tx, agentId: string, scope: MailScope, clock: Clock): Promise<Mail[]> {
  const [cursor] = await tx.select({ messageId: runMailCursors.messageId }).from(runMailCursors).where(eq(runMailCursors.agentId, agentId)).for("update");
  const [agent] = await tx.select({ createdAt: principals.createdAt }).from(principals).where(eq(principals.id, agentId));
  const sender = principals;
  const inRoom = scope.room ? and(eq(messages.room, scope.room), isNull(messages.toId), or(eq(sender.kind, "human"), eq(messages.performative, "REQUEST"))) : undefined;
  const rows = await tx
    .select({
      id: messages.id,
      room: messages.room,
      from: messages.senderId,
      fromName: sender.name,
      fromKind: sender.kind,
      addressed: sql<boolean>`(${messages.toId} is not distinct from ${agentId}::uuid or ${agentId}::uuid = any(${messages.mentions}))`,
      performative: messages.performative,
      taskId: messages.taskId,
      body: messages.body,
    })
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .where(
      and(
        cursor ? gt(messages.id, cursor.messageId) : agent ? sql`${messages.createdAt} >= ${agent.createdAt.toISOString()}::timestamptz` : undefined,
        ne(messages.senderId, agentId),
        or(eq(messages.toId, agentId), sql`${agentId}::uuid = any(${messages.mentions})`, inRoom),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(MAIL_PER_TURN);
  if (rows.length === 0) return [];
  const newest = rows[0].id;
  await tx
    .insert(runMailCursors)
    .values({ agentId, messageId: newest, updatedAt: clock.now() })
    .onConflictDoUpdate({ target: runMailCursors.agentId, set: { messageId: newest, updatedAt: clock.now() } });
  return rows.reverse().map(({ id, body, ...rest }) => ({
    messageId: id,
    ...rest,
    body: body.length > MAIL_BODY_CHARS ? `${body.slice(0, MAIL_BODY_CHARS)} … (cut: ${body.length} characters in all)` : body,
  }));
}

// The one send path of the room: HTTP, the agent workers and MCP all post through postMessage.
import { eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { messages, PERFORMATIVES, principals, rooms } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail, type QuorumError } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { deliverMessage } from "./delivery";
import { checkGates } from "./gates";
import { spendHoldToken } from "./hold-tokens";
import { recordRejection } from "./reject";
import type { MessageView } from "../rooms/message-view";
import { isUuid } from "../ids";

const MAX_BODY_BYTES = 16 * 1024;
const MAX_PAYLOAD_BYTES = 64 * 1024;

export const postMessageInput = z.strictObject({
  body: z
    .string()
    .min(1, "a message needs a body")
    .refine((body) => Buffer.byteLength(body) <= MAX_BODY_BYTES, `the body may hold at most ${MAX_BODY_BYTES} bytes`),
  performative: z.enum(PERFORMATIVES).optional(),
  /** The direct recipient, by name or id. */
  to: z.string().min(1).max(64).optional(),
  taskId: z.uuid().optional(),
  payload: z
    .record(z.string(), z.unknown())
    .refine((p) => Buffer.byteLength(JSON.stringify(p)) <= MAX_PAYLOAD_BYTES, `the payload may hold at most ${MAX_PAYLOAD_BYTES} bytes`)
    .optional(),
  holdToken: z.string().min(1).max(200).optional(),
});
export type PostMessageInput = z.infer<typeof postMessageInput>;

const MENTION = /(?:^|[^A-Za-z0-9_.@-])@([A-Za-z0-9][A-Za-z0-9_.-]{0,39})/g;

/** `@name` handles in a body; a trailing dot ends a sentence, not a name. */
export function parseMentions(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(MENTION)) names.add(match[1].replace(/\.+$/, ""));
  return [...names];
}

async function resolveRecipient(tx: Tx, to: string): Promise<{ id: string; name: string }> {
  const [row] = await tx
    .select({ id: principals.id, name: principals.name })
    .from(principals)
    .where(isUuid(to) ? or(eq(principals.id, to), eq(principals.name, to)) : eq(principals.name, to));
  if (!row) throw fail.notFound("message", `no principal named '${to}' to send to`);
  return row;
}

export interface PostMessageOptions {
  /** A critical-path reminder (the commitment ledger's): it passes every focus window. */
  nudge?: boolean;
}

export async function postMessage(db: Db, caller: Principal, roomName: string, input: PostMessageInput, clock: Clock, options: PostMessageOptions = {}): Promise<MessageView> {
  const now = clock.now();
  const outcome = await db.transaction(async (tx): Promise<{ message: MessageView } | { refused: QuorumError }> => {
    // Row-locking the room serialises posting per room: seq stays gap-free and gates see a settled room.
    // Row-lock waiters are not served strictly in order, which makes a hot room's p99 long (8 clients in
    // one room: p50 25–38 ms, p99 ≈ 300 ms over HTTP); a FIFO advisory lock measured p99 ≈ 90 ms but
    // doubled p50 and halved the room's throughput, so the row lock stays (bench/results, 2026-11-29).
    const [room] = await tx.select().from(rooms).where(eq(rooms.name, roomName)).for("update");
    if (!room) throw fail.notFound("room", `no room named '${roomName}'`);
    const recipient = input.to ? await resolveRecipient(tx, input.to) : null;
    const gateInput = { room: roomName, body: input.body, toId: recipient?.id ?? null, holdToken: input.holdToken, taskId: input.taskId };
    const verdict = await checkGates(tx, caller, gateInput, now);
    // A refusal commits only its GateRejected event (and a fresh hold token); the post counts toward nothing.
    if (!verdict.pass) return { refused: await recordRejection(tx, caller, gateInput, verdict.refusal, now) };
    // Tokens are bound to this room, whose lock we hold: no other post can spend it between check and spend.
    if (verdict.holdTokenId) await spendHoldToken(tx, verdict.holdTokenId, now);
    const mentionNames = parseMentions(input.body);
    const mentioned = mentionNames.length ? await tx.select({ id: principals.id }).from(principals).where(inArray(principals.name, mentionNames)) : [];
    const seq = room.lastSeq + 1;
    await tx
      .update(rooms)
      .set({ lastSeq: sql`${rooms.lastSeq} + 1` })
      .where(eq(rooms.name, roomName));
    const [row] = await tx
      .insert(messages)
      .values({
        room: roomName,
        seq,
        senderId: caller.id,
        toId: recipient?.id ?? null,
        performative: input.performative ?? null,
        taskId: input.taskId ?? null,
        body: input.body,
        payload: input.payload ?? null,
        mentions: mentioned.map((m) => m.id),
        heldSeq: verdict.heldSeq ?? null,
        createdAt: now,
      })
      .returning();
    await appendEvent(tx, {
      kind: "MessageSent",
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: {
        room: roomName,
        seq,
        messageId: row.id,
        to: row.toId,
        performative: row.performative,
        body: row.body,
        mentions: row.mentions,
        heldSeq: row.heldSeq,
        ...(options.nudge ? { nudge: true } : {}),
      },
    });
    await deliverMessage(tx, row, options, now);
    return {
      message: {
        id: row.id,
        seq: row.seq,
        room: row.room,
        senderId: caller.id,
        senderName: caller.name,
        senderKind: caller.kind,
        to: row.toId,
        toName: recipient?.name ?? null,
        performative: row.performative,
        taskId: row.taskId,
        body: row.body,
        payload: row.payload,
        mentions: row.mentions,
        heldSeq: row.heldSeq,
        createdAt: row.createdAt.toISOString(),
      },
    };
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.message;
}

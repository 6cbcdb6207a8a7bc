// The one send path of the room: HTTP, the agent workers and MCP all post through postMessage.
import { z } from "zod";
import { PERFORMATIVES } from "../../db/schema";
import { type Db, hotLaneOf } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { hashSecret } from "../principals/secrets";
import type { Principal } from "../principal";
import type { MessageView } from "./message-view";
import { flightOfTask } from "./flight-threads";
import { unreadShown } from "./freshness";
import { gateRefusal, refusalError } from "./gate-refusal";
import { callPostMessage, type PostCall } from "./post-combiner";

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

export interface PostMessageOptions {
  /** A critical-path reminder (the commitment ledger's): it passes every focus window. */
  nudge?: boolean;
}

// What "delivered" means for an agent: the message is in its inbox (domain/rooms/inbox.ts) —
// addressed to it or broadcast, from someone else, not yet acked by its seen-cursor, and not
// held in its digest. A message is delivered when the post commits, or, for an agent that was
// focusing, when its digest is flushed. Both moments append MessageDelivered (`via: "inbox"`
// listing the recipients, or `via: "digest"` with the batch), so the journal alone says who
// could have read what and when. Humans oversee every message and are not listed.

/** What quorum_post_message answers: the message it wrote, or the refusal it decided and recorded. */
interface PostOutcome {
  /** The room's last seq before this post; null when there is no such room. */
  lastSeq: number | null;
  recipient?: { id: string; name: string } | null;
  mentions?: string[];
  /** An agent's post a gate refused: the gate, reason and figures (./gate-refusal.ts), and a stale refusal's hold token. */
  refusal?: unknown;
  message?: { id: number; seq: number; heldSeq: number | null } | null;
}

/** Humans and the system principal are never gated; only agents are. */
function isGated(caller: Pick<Principal, "kind">): boolean {
  return caller.kind === "agent";
}

const holdTokenOf = z.object({ holdToken: z.string().nullable() });

/** quorum_post_message's arguments for this post. */
function callOf(caller: Principal, input: PostMessageInput, now: Date, nudge: boolean): PostCall {
  const to = input.to ?? null;
  return {
    sender: caller.id,
    gated: isGated(caller),
    body: input.body,
    toName: to,
    toUuid: to && isUuid(to) ? to : null,
    mentions: parseMentions(input.body),
    tokenHash: input.holdToken ? hashSecret(input.holdToken) : null,
    presented: input.holdToken !== undefined,
    performative: input.performative ?? null,
    taskId: input.taskId ?? null,
    payload: input.payload ?? null,
    nudge,
    now: now.toISOString(),
  };
}

/**
 * The whole post in one autocommitted call: the room lock, an agent's rate lock, every fact the gates
 * need, the gates' decision (quorum_post_gate_refusal) and the write (seq bump, message, spent hold token,
 * MessageSent, digests of focusing agents, MessageDelivered) run inside quorum_post_message, so the room
 * lock is never held across a trip to Node. A refused post writes no message: the same call records the
 * refusal (GateRejected, and a stale refusal's fresh hold token: quorum_record_gate_rejection) and answers
 * with its gate and figures, which ./gate-refusal.ts words; a stale one's unread messages are read here.
 * Deciding in Node held the room lock across two round trips, for longer than its statements took; recording
 * a refusal in the same call spares it a second transaction (figures: bench/results/notebook.md).
 * Posts to one room that arrive while another is in flight go together in one transaction (./post-combiner.ts).
 * Both go on the database's posts lane, four connections of their own (db/client.ts says why).
 */
export async function postMessage(db: Db, caller: Principal, roomName: string, input: PostMessageInput, clock: Clock, options: PostMessageOptions = {}): Promise<MessageView> {
  const now = clock.now();
  // The flight a task's message threads under is read beside the post, off the posts lane: no wait added.
  const [outcome, flight] = await Promise.all([
    callPostMessage<PostOutcome>(hotLaneOf(db, "posts"), roomName, callOf(caller, input, now, options.nudge === true)),
    input.taskId ? flightOfTask(db, input.taskId) : null,
  ]);
  if (outcome.lastSeq === null) throw fail.notFound("room", `no room named '${roomName}'`);
  const recipient = outcome.recipient ?? null;
  if (input.to && !recipient) throw fail.notFound("message", `no principal named '${input.to}' to send to`);
  const toId = recipient?.id ?? null;
  const written = outcome.message;
  if (written) {
    return {
      id: written.id,
      seq: written.seq,
      room: roomName,
      senderId: caller.id,
      senderName: caller.name,
      senderKind: caller.kind,
      to: toId,
      toName: recipient?.name ?? null,
      performative: input.performative ?? null,
      taskId: input.taskId ?? null,
      flight,
      body: input.body,
      payload: input.payload ?? null,
      mentions: outcome.mentions ?? [],
      heldSeq: written.heldSeq,
      createdAt: now.toISOString(),
    };
  }
  if (!outcome.refusal) throw new Error(`quorum_post_message neither wrote nor refused a post in #${roomName}`);
  const refusal = gateRefusal.parse(outcome.refusal);
  if (refusal.gate !== "freshness") throw refusalError(roomName, refusal);
  // The unread a stale refusal inlines stop at the seq its hold token is bound to, as the gate saw them.
  const { holdToken } = holdTokenOf.parse(outcome.refusal);
  if (holdToken === null) throw new Error(`quorum_post_message refused a stale post in #${roomName} without a hold token`);
  const unread = await unreadShown(db, caller.id, roomName, refusal.figures.cursor, refusal.figures.latestSeq);
  throw refusalError(roomName, refusal, { unread, holdToken });
}

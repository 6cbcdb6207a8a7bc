// The one send path of the room: HTTP, the agent workers and MCP all post through postMessage.
import { z } from "zod";
import { PERFORMATIVES } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import type { MessageSentData } from "../journal/payloads";
import type { Principal } from "../principals/types";
import { pipelinedTransaction, type RawSql } from "../raw-sql";
import type { MessageView } from "../rooms/message-view";
import { DIGEST_CAP } from "./digest";
import { unreadSince } from "./freshness";
import { type DecidedRefusal, decideGates, type GateRefusal, isGated } from "./gates";
import { readPostFacts } from "./post-facts";
import { recordRejection } from "./reject";

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

// What "delivered" means for an agent: the message is in its inbox (server/relay/inbox.ts) —
// addressed to it or broadcast, from someone else, not yet acked by its seen-cursor, and not
// held in its digest. A message is delivered when the post commits, or, for an agent that was
// focusing, when its digest is flushed. Both moments append MessageDelivered (`via: "inbox"`
// listing the recipients, or `via: "digest"` with the batch), so the journal alone says who
// could have read what and when. Humans oversee every message and are not listed.

/** What the write needs beyond the input: every figure is settled before it runs. */
interface PostWrite {
  room: string;
  seq: number;
  caller: Principal;
  toId: string | null;
  mentions: string[];
  heldSeq: number | null;
  holdTokenId: string | null;
  nudge: boolean;
  now: Date;
}

/**
 * The whole post in one statement (a data-modifying CTE): the seq bump, the message, the spent hold
 * token, MessageSent, the digests of focusing agents (the oldest dropped past DIGEST_CAP, counted)
 * and MessageDelivered. Runs under the room lock taken by readPostFacts.
 */
function writePost(sql: RawSql, input: PostMessageInput, w: PostWrite) {
  const t = w.now.toISOString();
  const me = w.caller.id;
  const taskId = input.taskId ?? null;
  const performative = input.performative ?? null;
  const sent: Omit<MessageSentData, "messageId"> = {
    room: w.room,
    seq: w.seq,
    to: w.toId,
    performative,
    body: input.body,
    mentions: w.mentions,
    heldSeq: w.heldSeq,
    ...(w.nudge ? { nudge: true as const } : {}),
  };
  // A critical-path nudge passes every focus window; an @mention passes the mentioned agent's.
  const holds = !w.nudge;
  return sql<{ id: number }[]>`
    with bump as (
      update rooms set last_seq = ${w.seq}::bigint where name = ${w.room}
    ), msg as (
      insert into messages (room, seq, sender_id, to_id, performative, task_id, body, payload, mentions, held_seq, created_at)
      values (${w.room}, ${w.seq}::bigint, ${me}::uuid, ${w.toId}::uuid, ${performative}::text, ${taskId}::uuid, ${input.body}::text,
              ${input.payload ? JSON.stringify(input.payload) : null}::jsonb, ${w.mentions}::uuid[], ${w.heldSeq}::bigint, ${t}::timestamptz)
      returning id
    ), spent as (
      update hold_tokens set used_at = ${t}::timestamptz where id = ${w.holdTokenId}::uuid and used_at is null
    ), sent_event as (
      insert into events (kind, actor, task_id, t, data)
      select 'MessageSent', ${me}::uuid, ${taskId}::uuid, ${t}::timestamptz, ${JSON.stringify(sent)}::jsonb || jsonb_build_object('messageId', msg.id) from msg
      returning id
    ), audience as (
      select id from principals where kind = 'agent' and id <> ${me}::uuid and (${w.toId}::uuid is null or id = ${w.toId}::uuid)
    ), windows as (
      -- Locking the windows (in id order) serialises digest writes per agent across rooms, so the cap holds exactly.
      select id, agent_id from focus_windows
      where ${holds}::boolean and closed_at is null and agent_id <> ${me}::uuid
        and (${w.toId}::uuid is null or agent_id = ${w.toId}::uuid) and not (agent_id = any(${w.mentions}::uuid[]))
      order by id for update
    ), queued as (
      insert into digest_entries (window_id, agent_id, message_id, room, seq, queued_at)
      select windows.id, windows.agent_id, msg.id, ${w.room}, ${w.seq}::bigint, ${t}::timestamptz from windows, msg
    ), dropped as (
      -- The new entry is not visible here: keep the newest DIGEST_CAP - 1 of the others.
      update digest_entries d set state = 'dropped', settled_at = ${t}::timestamptz
      from (select agent_id, message_id, row_number() over (partition by window_id order by message_id desc) as rn
            from digest_entries where window_id in (select id from windows) and state = 'queued') r
      where d.agent_id = r.agent_id and d.message_id = r.message_id and r.rn >= ${DIGEST_CAP}::int and d.state = 'queued'
      returning d.window_id
    ), counted as (
      update focus_windows f set dropped = f.dropped + c.n
      from (select window_id, count(*)::int as n from dropped group by window_id) c where f.id = c.window_id
    ), delivery as (
      select coalesce((select jsonb_agg(a.id) from audience a where a.id not in (select agent_id from windows)), '[]'::jsonb) as recipients,
             coalesce((select jsonb_agg(windows.agent_id order by windows.id) from windows), '[]'::jsonb) as held
    ), delivered as (
      insert into events (kind, actor, task_id, t, data)
      select 'MessageDelivered', ${me}::uuid, ${taskId}::uuid, ${t}::timestamptz,
             jsonb_build_object('via', 'inbox', 'room', ${w.room}::text, 'seq', ${w.seq}::bigint, 'messageId', msg.id, 'performative', ${performative}::text,
                                'recipients', delivery.recipients, 'held', delivery.held, 'nudge', ${w.nudge}::boolean)
      -- Reading sent_event orders the inserts: MessageDelivered always follows its MessageSent in the journal.
      from msg, delivery, sent_event
      where jsonb_array_length(delivery.recipients) > 0 or jsonb_array_length(delivery.held) > 0
    )
    select id from msg`;
}

/**
 * Facts, decision, one write, in two round trips: BEGIN, the room and rate locks and every fact
 * the gates need go out together (readPostFacts); decideGates (./gates.ts) decides in TypeScript;
 * the whole post and COMMIT go out together (writePost). The drizzle version took 12–20 statements,
 * each two trips (unnamed statements are described before they are bound), all under the room lock.
 * Measured (bench/results/2026-11-30.md, medians of three --quick runs, same-run anchors, embedded
 * PostgreSQL 18 on 2 cores): 8 agents in one room 0.14× → 0.20× a raw single-row INSERT on one
 * connection; 8 rooms 0.046× → 0.081× raw INSERTs on 8 connections (+ writers no longer NOTIFY). The
 * second day (same file, "The second day") cut writes and reads, not trips: the journal's search index
 * skips MessageDelivered (0.3 ms a row), the cursor ack is one statement, the two-tier figures are kept
 * on the round's row; 8 rooms 0.081× → 0.110× (430 → 555 posts/s), one room ~320 → ~330 posts/s, its
 * ratio flat at 0.19× (its anchor moved as much). One room is bound by the room lock's hold, ~3 ms a
 * post: the facts (0.3 ms), the trip back to Node and out again, the write (1.0 ms) and the commit's
 * flush (~0.45 ms: synchronous_commit off measured +14%), all under the lock. Going further means
 * deciding inside the database in one trip, which moves the gates out of TypeScript.
 * A refusal rolls nothing back that matters (nothing was written): it ends the transaction, which
 * frees the room, then records GateRejected (and a stale refusal's fresh hold token) in its own.
 */
export async function postMessage(db: Db, caller: Principal, roomName: string, input: PostMessageInput, clock: Clock, options: PostMessageOptions = {}): Promise<MessageView> {
  const now = clock.now();
  const outcome = await pipelinedTransaction(db, async ({ sql, commitWith }): Promise<{ message: MessageView } | { refused: DecidedRefusal; toId: string | null }> => {
    // Row-locking the room serialises posting per room: seq stays gap-free and gates see a settled room.
    // Row-lock waiters are not served strictly in order, which made a hot room's p99 long (2026-11-29: 8
    // clients in one room, p50 25–38 ms, p99 ≈ 300 ms over HTTP); a FIFO advisory lock then measured p99
    // ≈ 90 ms but doubled p50 and halved the room's throughput. With the lock held across one round trip
    // instead of ~20, the hot room's POST p99 ÷ p50 fell from 6.0× to 2.5–3.8× (median 2.6×, three
    // --quick runs, bench/results/2026-11-30.md), inside the FIFO lock's reach without its cost: the row
    // lock stays (the FIFO lock was not re-measured this round).
    const facts = await readPostFacts(sql, {
      room: roomName,
      senderId: caller.id,
      gated: isGated(caller),
      body: input.body,
      toName: input.to ?? null,
      toUuid: input.to && isUuid(input.to) ? input.to : null,
      mentionNames: parseMentions(input.body),
      holdToken: input.holdToken,
      now,
    });
    if (facts.lastSeq === null) throw fail.notFound("room", `no room named '${roomName}'`);
    if (input.to && !facts.recipient) throw fail.notFound("message", `no principal named '${input.to}' to send to`);
    const recipient = facts.recipient;
    const toId = recipient?.id ?? null;
    const verdict = facts.gates ? decideGates(caller, { toId, holdToken: input.holdToken }, facts.gates, now) : { pass: true as const };
    if (!verdict.pass) return { refused: verdict.refusal, toId };
    const seq = facts.lastSeq + 1;
    const write: PostWrite = {
      room: roomName,
      seq,
      caller,
      toId,
      mentions: facts.mentions,
      heldSeq: verdict.heldSeq ?? null,
      // Tokens are bound to this room, whose lock we hold: no other post can spend it between check and spend.
      holdTokenId: verdict.holdTokenId ?? null,
      nudge: options.nudge === true,
      now,
    };
    const [row] = await commitWith(writePost(sql, input, write));
    return {
      message: {
        id: row.id,
        seq,
        room: roomName,
        senderId: caller.id,
        senderName: caller.name,
        senderKind: caller.kind,
        to: toId,
        toName: recipient?.name ?? null,
        performative: input.performative ?? null,
        taskId: input.taskId ?? null,
        body: input.body,
        payload: input.payload ?? null,
        mentions: write.mentions,
        heldSeq: write.heldSeq,
        createdAt: now.toISOString(),
      },
    };
  });
  if ("message" in outcome) return outcome.message;
  // The refusal as decided under the lock; the unread it inlines stop at the seq it names.
  const decided = outcome.refused;
  const gateInput = { room: roomName, body: input.body, toId: outcome.toId, holdToken: input.holdToken, taskId: input.taskId };
  const error = await db.transaction(async (tx) => {
    const refusal: GateRefusal =
      decided.gate === "freshness" ? { ...decided, unread: (await unreadSince(tx, caller.id, roomName, decided.cursor, decided.latestSeq)).newest } : decided;
    return recordRejection(tx, caller, gateInput, refusal, now);
  });
  throw error;
}

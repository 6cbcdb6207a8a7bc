// A post's reads, in one network round trip: the room lock, the sender's rate lock, then every fact
// the gates and the write need, as pipelined prepared statements (see ../raw-sql.ts).
//
// Why three statements and not one: a statement's snapshot is taken when it starts, so facts read
// by the statement that waits for the room lock would miss the post it waited for (two identical
// bodies would both pass). Pipelined, the facts statement starts only after the locks are held, and
// the three still cost one trip (the drizzle version ran 12–20 statements here, each a Describe and a
// Bind trip; numbers in ./post-message.ts). The duplicate check reads the (room, sender_id, md5(body))
// expression index that 0006 already built: a hash lookup, so no body_hash column (and no migration).
import { hashSecret } from "../principals/secrets";
import type { RawSql } from "../raw-sql";
import type { GateFacts } from "./gates";
import { RATE_LOCK } from "./gates";
import { RATE_LIMIT, RATE_WINDOW_MS } from "./limits";

export interface PostFacts {
  /** The room's last seq, read with its row lock held; null when there is no such room. */
  lastSeq: number | null;
  /** The direct recipient named by `to` (a name or an id); null when none was asked or none matches. */
  recipient: { id: string; name: string } | null;
  /** The ids of the principals @mentioned by name. */
  mentions: string[];
  /** Only for gated (agent) senders. */
  gates: GateFacts | null;
}

export interface PostFactsInput {
  room: string;
  senderId: string;
  gated: boolean;
  body: string;
  /** `to` as given, and as a uuid when it parses as one. */
  toName: string | null;
  toUuid: string | null;
  mentionNames: string[];
  holdToken: string | undefined;
  now: Date;
}

interface SharedRow {
  recipient: { id: string; name: string } | null;
  mentions: string[];
}

interface GateRow extends SharedRow {
  rate_count: number;
  rate_oldest_ms: number | null;
  duplicate_of_seq: number | null;
  cursor: number;
  unread_count: number;
  latest_unread_seq: number | null;
  hold_token: { id: string; seq: number; used: boolean; expiresAtMs: number } | null;
  human_seq: number | null;
  human_at_ms: number | null;
  sent: number;
  other_speakers: number;
  prior_rounds: number | null;
  prior_mean: number | null;
  prior_std_dev: number | null;
}

/** Who `to` names and whom the body @mentions: every post's facts, a human's only ones. */
function sharedColumns(sql: RawSql, input: PostFactsInput) {
  return sql`
      (select json_build_object('id', id, 'name', name) from principals
         where name = ${input.toName}::text or id = ${input.toUuid}::uuid limit 1) as recipient,
      (select coalesce(array_agg(id), '{}'::uuid[]) from principals where name = any(${input.mentionNames}::text[])) as mentions`;
}

function gateFacts(sql: RawSql, input: PostFactsInput, broadcast: boolean) {
  const { room, senderId: me } = input;
  const windowStart = new Date(input.now.getTime() - RATE_WINDOW_MS).toISOString();
  const tokenHash = input.holdToken ? hashSecret(input.holdToken) : null;
  // Every read walks an index: rate (sender_id, created_at), duplicate (room, sender_id, md5(body)),
  // sent (room, sender_id, seq), unread and speakers (room, seq), the round (with its cap's figures) by primary key.
  return sql<GateRow[]>`
    with cur as (
      select coalesce((select seq from seen_cursors where principal_id = ${me}::uuid and room = ${room}), 0)::bigint as seq
    ), last_round as (
      select human_seq, human_at, prior_rounds, prior_mean, prior_std_dev from room_rounds where room = ${room} order by n desc limit 1
    ), since as (
      select coalesce((select human_seq from last_round), 0)::bigint as seq
    ), rate as (
      select count(*)::int as n, floor(extract(epoch from min(created_at)) * 1000)::float8 as oldest_ms
      from (select created_at from messages
            where sender_id = ${me}::uuid and created_at > ${windowStart}::timestamptz
            order by created_at desc limit ${RATE_LIMIT}) w
    ), unread as (
      select count(*)::int as n, max(seq) as latest from messages
      where ${broadcast}::boolean and room = ${room} and seq > (select seq from cur)
        and sender_id <> ${me}::uuid and (to_id is null or to_id = ${me}::uuid)
    )
    select
      ${sharedColumns(sql, input)},
      rate.n as rate_count,
      rate.oldest_ms as rate_oldest_ms,
      (select seq from messages where room = ${room} and sender_id = ${me}::uuid and md5(body) = md5(${input.body}::text) and body = ${input.body}::text limit 1) as duplicate_of_seq,
      (select seq from cur) as cursor,
      unread.n as unread_count,
      unread.latest as latest_unread_seq,
      (select json_build_object('id', id, 'seq', seq, 'used', used_at is not null, 'expiresAtMs', floor(extract(epoch from expires_at) * 1000))
         from hold_tokens where token_hash = ${tokenHash}::text and principal_id = ${me}::uuid and room = ${room}) as hold_token,
      (select human_seq from last_round) as human_seq,
      (select floor(extract(epoch from human_at) * 1000)::float8 from last_round) as human_at_ms,
      (select count(*)::int from messages where room = ${room} and sender_id = ${me}::uuid and seq > (select seq from since)) as sent,
      (select count(distinct m.sender_id)::int from messages m join principals p on p.id = m.sender_id
         where m.room = ${room} and m.seq > (select seq from since) and p.kind = 'agent' and m.sender_id <> ${me}::uuid) as other_speakers,
      (select prior_rounds from last_round) as prior_rounds,
      (select prior_mean from last_round) as prior_mean,
      (select prior_std_dev from last_round) as prior_std_dev
    from rate, unread`;
}

/** Takes the room's row lock (then, for an agent, its rate lock) and reads every fact, in one round trip. */
export async function readPostFacts(sql: RawSql, input: PostFactsInput): Promise<PostFacts> {
  const broadcast = input.toName === null;
  // Issued without awaiting in between: postgres.js pipelines them, the server runs them in order.
  const lock = sql<{ last_seq: number }[]>`select last_seq from rooms where name = ${input.room} for update`.execute();
  const rateLock = input.gated ? sql`select pg_advisory_xact_lock(${RATE_LOCK}::int, hashtext(${input.senderId}::text))`.execute() : null;
  // An agent's gate facts carry the shared columns too: one statement fewer on the path that is gated.
  const shared = input.gated ? null : sql<SharedRow[]>`select ${sharedColumns(sql, input)}`.execute();
  const gates = input.gated ? gateFacts(sql, input, broadcast).execute() : null;
  const [[room], , sharedRows, gateRows] = await Promise.all([lock, rateLock, shared, gates]);
  const g = gateRows?.[0];
  const { recipient, mentions } = g ?? sharedRows![0];
  return {
    lastSeq: room ? room.last_seq : null,
    recipient,
    mentions,
    gates: g
      ? {
          rate: { sentInWindow: g.rate_count, oldestMs: g.rate_oldest_ms },
          duplicateOfSeq: g.duplicate_of_seq,
          cursor: g.cursor,
          unreadCount: g.unread_count,
          latestUnreadSeq: g.latest_unread_seq,
          holdToken: g.hold_token,
          round: g.human_seq === null || g.human_at_ms === null ? null : { humanSeq: g.human_seq, humanAtMs: g.human_at_ms },
          sent: g.sent,
          otherSpeakers: g.other_speakers,
          roundStats: { rounds: g.prior_rounds ?? 0, mean: g.prior_mean, stdDev: g.prior_std_dev },
        }
      : null,
  };
}

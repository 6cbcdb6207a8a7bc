// Posts to one room from this process go to the database one call at a time: a post that arrives while
// another is in flight waits, and all that waited go together as one transaction (quorum_post_messages,
// migration 0030) as soon as the one in flight is done. A lone post goes alone, at once, as before.
//
// Why: a post holds its room's row lock from its reads through its commit's WAL flush, so in a hot room
// posts queued for each other's flushes. Sent together they pay one lock and one flush; each post is
// still decided by quorum_post_message, in queue order, seeing the ones before it. Interleaved runs of
// `npm run bench -- --quick --only=posting` (three each, embedded PostgreSQL 18 on 2 cores, 2026-12-01):
// 8 agents in one room 447–520 → 766–838 posts/s (0.32–0.41× → 0.53–0.72× a raw INSERT on one connection,
// whose own rate moved 1,081–1,646/s between runs); 8 agents in 8 rooms, where nothing queues, 849–973
// posts/s either way. Through HTTP the hot room's POST p99 stays 2.6× its p50.
import postgres from "postgres";
import type { RawSql } from "../raw-sql";
import { DIGEST_CAP } from "./digest";
import { RATE_LOCK } from "./gates";
import { HUMAN_PRESENT_MS, RATE_LIMIT, RATE_WINDOW_MS, TWO_TIER_FLOOR, TWO_TIER_MIN_ROUNDS } from "./limits";

/** The rules' numbers, as quorum_post_message reads them (limits.ts stays their one home). */
export const POST_LIMITS = JSON.stringify({
  rateLimit: RATE_LIMIT,
  rateWindowMs: RATE_WINDOW_MS,
  rateLock: RATE_LOCK,
  humanPresentMs: HUMAN_PRESENT_MS,
  twoTierFloor: TWO_TIER_FLOOR,
  twoTierMinRounds: TWO_TIER_MIN_ROUNDS,
  digestCap: DIGEST_CAP,
});

/** One post's arguments to quorum_post_message, as JSON (the batch's shape; a lone call binds them). */
export interface PostCall {
  sender: string;
  gated: boolean;
  body: string;
  toName: string | null;
  toUuid: string | null;
  mentions: string[];
  tokenHash: string | null;
  presented: boolean;
  performative: string | null;
  taskId: string | null;
  payload: Record<string, unknown> | null;
  nudge: boolean;
  now: string;
}

/** A batch larger than this waits for the next turn: one transaction should not hold the room for long. */
const MAX_BATCH = 32;

interface Waiting<T> {
  call: PostCall;
  resolve: (outcome: T) => void;
  reject: (error: unknown) => void;
}

/** Per client, per room: the posts waiting behind the call in flight (an entry exists while one is). */
const waitingByClient = new WeakMap<RawSql, Map<string, Waiting<unknown>[]>>();

export function callPostMessage<T>(sql: RawSql, room: string, call: PostCall): Promise<T> {
  const rooms = waitingByClient.get(sql) ?? new Map<string, Waiting<unknown>[]>();
  waitingByClient.set(sql, rooms);
  const waiting = rooms.get(room) as Waiting<T>[] | undefined;
  if (waiting) return new Promise<T>((resolve, reject) => waiting.push({ call, resolve, reject }));
  rooms.set(room, []);
  const alone = postAlone<T>(sql, room, call);
  const drain = () => drainRoom(sql, rooms, room);
  alone.then(drain, drain);
  return alone;
}

async function drainRoom(sql: RawSql, rooms: Map<string, Waiting<unknown>[]>, room: string): Promise<void> {
  for (;;) {
    const waiting = rooms.get(room)!;
    if (waiting.length === 0) {
      rooms.delete(room);
      return;
    }
    await postBatch(sql, room, waiting.splice(0, MAX_BATCH));
  }
}

/** Settles every waiting post; never throws. */
async function postBatch(sql: RawSql, room: string, batch: Waiting<unknown>[]): Promise<void> {
  if (batch.length > 1) {
    try {
      const [{ outcomes }] = await sql<{ outcomes: unknown[] }[]>`
        select quorum_post_messages(${room}::text, ${JSON.stringify(batch.map((w) => w.call))}::jsonb, ${POST_LIMITS}::jsonb) as outcomes`;
      for (const [i, w] of batch.entries()) w.resolve(outcomes[i]);
      return;
    } catch (error) {
      // The statement failed and its transaction rolled back, so nothing of the batch is stored: each post
      // goes again alone and meets its own fate (the one that failed it gets the same error it would have
      // alone). Any other failure (the connection lost) leaves the outcome unknown: each post is told so.
      if (!(error instanceof postgres.PostgresError)) {
        for (const w of batch) w.reject(error);
        return;
      }
    }
  }
  for (const w of batch) await postAlone(sql, room, w.call).then(w.resolve, w.reject);
}

async function postAlone<T>(sql: RawSql, room: string, c: PostCall): Promise<T> {
  const [{ outcome }] = await sql<{ outcome: T }[]>`
    select quorum_post_message(
      ${room}::text, ${c.sender}::uuid, ${c.gated}::boolean, ${c.body}::text, ${c.toName}::text, ${c.toUuid}::uuid,
      ${c.mentions}::text[], ${c.tokenHash}::text, ${c.presented}::boolean, ${c.performative}::text, ${c.taskId}::uuid,
      ${c.payload ? JSON.stringify(c.payload) : null}::jsonb, ${c.nudge}::boolean, ${c.now}::timestamptz, ${POST_LIMITS}::jsonb
    ) as outcome`;
  return outcome;
}

// Posts to one room from this process go to the database one call at a time (domain/batched-calls.ts): a
// post that arrives while another is in flight waits, and all that waited go together as one transaction
// (quorum_post_messages, migration 0030) as soon as the one in flight is done. A lone post goes alone.
//
// Why: a post holds its room's row lock from its reads through its commit's WAL flush, so in a hot room
// posts queued for each other's flushes. Sent together they pay one lock and one flush; each post is
// still decided, and a refusal recorded, by quorum_post_message, in queue order, seeing the ones before
// it (figures: bench/results/notebook.md).
import { batchedCalls } from "../batched-calls";
import type { RawSql } from "../raw-sql";

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

/** A post, one at a time or with the others queued in its room (a batch holds the room for one transaction). */
const postInTurn = batchedCalls<PostCall, unknown>({
  maxBatch: 32,
  alone: postAlone,
  async together(sql, room, calls) {
    const [{ outcomes }] = await sql<{ outcomes: unknown[] }[]>`
      select quorum_post_messages(${room}::text, ${JSON.stringify(calls)}::jsonb) as outcomes`;
    return outcomes;
  },
});

export function callPostMessage<T>(sql: RawSql, room: string, call: PostCall): Promise<T> {
  return postInTurn(sql, room, call) as Promise<T>;
}

async function postAlone(sql: RawSql, room: string, c: PostCall): Promise<unknown> {
  const [{ outcome }] = await sql<{ outcome: unknown }[]>`
    select quorum_post_message(
      ${room}::text, ${c.sender}::uuid, ${c.gated}::boolean, ${c.body}::text, ${c.toName}::text, ${c.toUuid}::uuid,
      ${c.mentions}::text[], ${c.tokenHash}::text, ${c.presented}::boolean, ${c.performative}::text, ${c.taskId}::uuid,
      ${c.payload ? JSON.stringify(c.payload) : null}::jsonb, ${c.nudge}::boolean, ${c.now}::timestamptz
    ) as outcome`;
  return outcome;
}

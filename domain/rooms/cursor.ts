// Seen-cursors: how far a principal has acknowledged a room. Only this explicit ack moves one.
import { z } from "zod";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { rawClientOf } from "../raw-sql";
import { getRoom } from "./rooms";
import { cursorOf } from "./freshness";

export const advanceCursorInput = z.strictObject({
  seq: z.number().int().min(0),
});
export type AdvanceCursorInput = z.infer<typeof advanceCursorInput>;

export interface CursorView {
  room: string;
  seq: number;
  lastSeq: number;
  /** False when the ack was at or behind the cursor: cursors never move back. */
  moved: boolean;
}

export async function readCursor(db: Executor, caller: Principal, room: string): Promise<CursorView> {
  const { lastSeq } = await getRoom(db, room);
  return { room, seq: await cursorOf(db, caller.id, room), lastSeq, moved: false };
}

/**
 * Acks a room up to `seq`: forward only, never past the room's last message, journalled as CursorAdvanced.
 * One autocommitted prepared statement (a data-modifying CTE): an agent acks after every read and before
 * every broadcast (the freshness gate), so this sits on the posting path, where a transaction of separate
 * statements cost the posting figure measurably (bench/results/notebook.md).
 */
export async function advanceCursor(db: Db, caller: Principal, room: string, input: AdvanceCursorInput, clock: Clock): Promise<CursorView> {
  const now = clock.now().toISOString();
  const me = caller.id;
  const sql = rawClientOf(db);
  // `previous` is read from the statement's snapshot; the upsert's guard (and the forward-only trigger)
  // keeps a racing older ack from moving the cursor back.
  const [row] = await sql<{ last_seq: number | null; previous: number; moved: number | null }[]>`
    with target as (
      select last_seq from rooms where name = ${room}
    ), previous as (
      select coalesce((select seq from seen_cursors where principal_id = ${me}::uuid and room = ${room}), 0)::bigint as seq
    ), moved as (
      insert into seen_cursors (principal_id, room, seq, updated_at)
      select ${me}::uuid, ${room}, ${input.seq}::bigint, ${now}::timestamptz from target where ${input.seq}::bigint <= target.last_seq
      on conflict (principal_id, room) do update set seq = excluded.seq, updated_at = excluded.updated_at
      where seen_cursors.seq < excluded.seq
      returning seq
    ), journalled as (
      insert into events (kind, actor, t, data)
      select 'CursorAdvanced', ${me}::uuid, ${now}::timestamptz,
        jsonb_build_object('room', ${room}::text, 'seq', moved.seq, 'previous', previous.seq)
      from moved, previous where moved.seq <> previous.seq
    )
    select (select last_seq from target) as last_seq, (select seq from previous) as previous, (select seq from moved) as moved`;
  if (row.last_seq === null) throw fail.notFound("room", `no room named '${room}'`);
  const lastSeq = Number(row.last_seq);
  if (input.seq > lastSeq) {
    const message = `seq ${input.seq} is past the last message of #${room} (${lastSeq})`;
    throw fail.invalid("cursor", message, { issues: [{ code: "too_big", path: ["seq"], maximum: lastSeq, message }] });
  }
  const previous = Number(row.previous);
  if (row.moved === null || Number(row.moved) === previous) {
    // Not moved: the cursor stood at or past `seq` already (a racing ack may have put it further).
    return { room, seq: Math.max(previous, input.seq), lastSeq, moved: false };
  }
  return { room, seq: Number(row.moved), lastSeq, moved: true };
}

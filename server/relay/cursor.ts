// Seen-cursors: how far a principal has acknowledged a room. Only this explicit ack moves one.
import { lt, sql } from "drizzle-orm";
import { z } from "zod";
import { seenCursors } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { getRoom } from "../rooms/rooms";
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

/** Acks a room up to `seq`: forward only, never past the room's last message, journalled as CursorAdvanced. */
export async function advanceCursor(db: Db, caller: Principal, room: string, input: AdvanceCursorInput, clock: Clock): Promise<CursorView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const { lastSeq } = await getRoom(tx, room);
    if (input.seq > lastSeq) {
      const message = `seq ${input.seq} is past the last message of #${room} (${lastSeq})`;
      throw fail.invalid("cursor", message, { issues: [{ code: "too_big", path: ["seq"], maximum: lastSeq, message }] });
    }
    const previous = await cursorOf(tx, caller.id, room);
    // The upsert's guard keeps a racing older ack from moving the cursor back.
    const [moved] = await tx
      .insert(seenCursors)
      .values({ principalId: caller.id, room, seq: input.seq, updatedAt: now })
      .onConflictDoUpdate({
        target: [seenCursors.principalId, seenCursors.room],
        set: { seq: sql`excluded.seq`, updatedAt: sql`excluded.updated_at` },
        setWhere: lt(seenCursors.seq, sql`excluded.seq`),
      })
      .returning({ seq: seenCursors.seq });
    if (!moved || input.seq === previous) {
      return { room, seq: await cursorOf(tx, caller.id, room), lastSeq, moved: false };
    }
    await appendEvent(tx, { kind: "CursorAdvanced", actor: caller.id, t: now, data: { room, seq: moved.seq, previous } });
    return { room, seq: moved.seq, lastSeq, moved: true };
  });
}

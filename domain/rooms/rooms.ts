// Rooms: listing, creating (humans only), and looking one up by name.
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { rooms } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";

export const DEFAULT_ROOM = "general";

export const createRoomInput = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "1–64 lowercase letters, digits and '-'"),
});
export type CreateRoomInput = z.infer<typeof createRoomInput>;

export interface RoomView {
  name: string;
  lastSeq: number;
  createdAt: string;
}

function toView(row: typeof rooms.$inferSelect): RoomView {
  return { name: row.name, lastSeq: row.lastSeq, createdAt: row.createdAt.toISOString() };
}

export async function listRooms(db: Executor): Promise<RoomView[]> {
  return (await db.select().from(rooms).orderBy(asc(rooms.name))).map(toView);
}

export async function getRoom(db: Executor, name: string): Promise<RoomView> {
  const [row] = await db.select().from(rooms).where(eq(rooms.name, name));
  if (!row) throw fail.notFound("room", `no room named '${name}'`);
  return toView(row);
}

export async function createRoom(db: Db, caller: Principal, input: CreateRoomInput, clock: Clock): Promise<RoomView> {
  const now = clock.now();
  if (caller.kind !== "human") throw fail.forbidden("room", "only humans create rooms");
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(rooms).values({ name: input.name, createdBy: caller.id, createdAt: now }).onConflictDoNothing().returning();
    if (!row) throw fail.conflict("room", "name_taken", `a room named '${input.name}' exists`);
    await appendEvent(tx, { kind: "RoomCreated", actor: caller.id, t: now, data: { room: row.name } });
    return toView(row);
  });
}

import { createRoom, createRoomInput, listRooms } from "@/server/rooms/rooms";
import { callerOf, handle, json, readBody } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json({ items: await listRooms(ctx.db) });
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, createRoomInput);
    return json(await createRoom(ctx.db, caller, input, ctx.clock), 201);
  });
}

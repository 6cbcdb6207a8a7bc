import { listMessages, listMessagesQuery } from "@/server/rooms/list-messages";
import { postMessage, postMessageInput } from "@/server/relay/post-message";
import { callerOf, handle, json, readBody, readQuery } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ room: string }>;
}

export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const query = readQuery(req, listMessagesQuery);
    const { room } = await params;
    return json(await listMessages(ctx.db, caller, room, query));
  });
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, postMessageInput);
    const { room } = await params;
    return json(await postMessage(ctx.db, caller, room, input, ctx.clock), 201);
  });
}

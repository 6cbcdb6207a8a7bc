// POST /api/session/sign-out: ends the caller's browser session on the server and clears its cookie.
import { hubUrlSetting } from "@/server/config";
import { clearedSessionCookie, secureCookies, sessionTokenOf } from "@/server/principals/session-cookie";
import { endSession, signOutInput } from "@/server/principals/sign-out";
import { callerOf, handle, readBody } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, signOutInput);
    await endSession(ctx.db, caller, sessionTokenOf(req.headers.get("cookie")), ctx.clock);
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(secureCookies(hubUrlSetting())), "Cache-Control": "no-store" } });
  });
}

// The one-time sign-in link: spends the token, sets the session cookie, opens the room.
import { SESSION_COOKIE } from "@/server/principals/sign-in";
import { redeemSignInLink } from "@/server/principals/sign-in";
import { QuorumError } from "@/server/errors";
import { appContext } from "../api/_lib/http";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const ctx = appContext();
  try {
    const { sessionToken, expiresAt } = await redeemSignInLink(ctx.db, token, ctx.clock);
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(sessionToken)}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}`;
    return new Response(null, { status: 303, headers: { Location: "/room", "Set-Cookie": cookie } });
  } catch (error) {
    if (!(error instanceof QuorumError)) throw error;
    return new Response(null, { status: 303, headers: { Location: "/welcome?link=invalid" } });
  }
}

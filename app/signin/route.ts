// The one-time sign-in link: spends the token, sets the session cookie, opens the room; a refused link
// lands on the welcome page, which says why.
import { redeemSignInLink, refusedLinkReason } from "@/domain/principals/sign-in";
import { hubUrlSetting } from "@/domain/config";
import { secureCookies, sessionCookie } from "@/domain/principals/session-cookie";
import { QuorumError } from "@/domain/errors";
import { appContext } from "@/surfaces/http/handler";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const ctx = appContext();
  try {
    const { sessionToken, expiresAt } = await redeemSignInLink(ctx.db, token, ctx.clock);
    return new Response(null, { status: 303, headers: { Location: "/room", "Set-Cookie": sessionCookie(sessionToken, expiresAt, secureCookies(hubUrlSetting())) } });
  } catch (error) {
    if (!(error instanceof QuorumError)) throw error;
    // The page says which: used, expired or unknown, and how to get a new link.
    const reason = await refusedLinkReason(ctx.db, token, ctx.clock);
    return new Response(null, { status: 303, headers: { Location: `/welcome?link=${reason}` } });
  }
}

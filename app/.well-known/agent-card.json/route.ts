// A2A's agent card, where A2A clients look for it (RFC 8615's well-known path): who answers, the JSON-RPC
// interface at QUORUM_URL's /api/a2a, the bearer key it takes and the skills the endpoints declare (surfaces/http/skills.ts). Public, as
// a card is: it names no one and nothing on the board. Next serves it under both `next start` and `quorum start`
// (whose lean router takes /api/* only and hands every other path to Next).
import { AgentCard } from "@a2a-js/sdk";
import { currentCard } from "@/surfaces/a2a/endpoint";
import { appUrl } from "@/domain/config";
import { appContext } from "@/surfaces/http/handler";
import { ROUTES } from "@/surfaces/http/routes";
import { skillsOf } from "@/surfaces/http/skills";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    const card = await currentCard(appContext(), appUrl(), skillsOf(ROUTES));
    // A minute's cache: the team skill says how the team thinks now, which changes only when a worker starts.
    return Response.json(AgentCard.toJSON(card), { headers: { "Cache-Control": "public, max-age=60" } });
  } catch (error) {
    console.error("could not build the agent card", error);
    return Response.json({ error: "internal", message: "something went wrong on our side" }, { status: 500, headers: { "Cache-Control": "no-store" } });
  }
}

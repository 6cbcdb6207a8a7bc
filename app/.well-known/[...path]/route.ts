// OAuth discovery probes (/.well-known/oauth-*, openid-configuration): Quorum uses bearer keys, so a JSON 404, never a 500.
export const dynamic = "force-dynamic";

function notHere(req: Request): Response {
  const path = new URL(req.url).pathname;
  return Response.json(
    { error: "not_found", message: `${path}: Quorum has no OAuth; send Authorization: Bearer <key> (quorum connect prints one)` },
    { status: 404, headers: { "Cache-Control": "no-store" } },
  );
}

export const GET = notHere;
export const POST = notHere;

// A2A's JSON-RPC binding over HTTP (v1.0): the request is checked as MCP's is (another site's page refused, a
// bearer key only, the 1 MiB cap), then answered by ./endpoint.ts. Refusals made here are JSON-RPC errors too,
// with REST's status.
import { appUrl, hubUrlSetting } from "../../domain/config";
import type { ServerContext } from "../../domain/context";
import { fail, QuorumError } from "../../domain/errors";
import { requireBearerCaller } from "../../domain/principals/authenticate";
import { requireOwnOrigin } from "../../domain/request-origin";
import { readCapped } from "../../domain/request-body";
import { MAX_BODY_BYTES } from "../../domain/request-shape";
import { answerA2A } from "./endpoint";
import { envelopeOf } from "./errors";
import type { SkillDef } from "./skill";

export async function handleA2APost(req: Request, ctx: ServerContext, skills: SkillDef[]): Promise<Response> {
  try {
    requireOwnOrigin(req, hubUrlSetting(), "a2a");
    // As REST does: a declared body over the cap is refused before anything is read, the key included.
    if (Number(req.headers.get("content-length")) > MAX_BODY_BYTES) throw fail.tooLarge("request", MAX_BODY_BYTES);
    const caller = await requireBearerCaller(ctx.db, req.headers.get("authorization"), ctx.clock);
    const text = await readCapped(req, MAX_BODY_BYTES);
    return await answerA2A(ctx, caller, { text, version: req.headers.get("a2a-version"), http: req, skills }, appUrl());
  } catch (error) {
    if (error instanceof QuorumError) {
      const headers: Record<string, string> = { "Cache-Control": "no-store" };
      if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="quorum"';
      return Response.json(envelopeOf(error), { status: error.status, headers });
    }
    console.error("unexpected error in the A2A endpoint", error);
    return Response.json(
      { jsonrpc: "2.0", id: null, error: { code: -32603, message: "something went wrong on our side; the request changed nothing" } },
      { status: 500, headers: { "Cache-Control": "no-store" } },
    );
  }
}

/** JSON-RPC is POSTed; streams come back on the POST that asked for them. */
export function a2aNotAllowed(): Response {
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: -32600, message: "POST JSON-RPC to this endpoint (A2A v1.0); the agent card is at /.well-known/agent-card.json" } },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } },
  );
}

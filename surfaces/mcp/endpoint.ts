// The MCP endpoint (Streamable HTTP, stateless): a fresh server and transport per request, bearer auth on each.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { hubUrlSetting } from "../../domain/config";
import type { ServerContext } from "../../domain/context";
import { fail, QuorumError } from "../../domain/errors";
import { MAX_BODY_BYTES } from "../../domain/request-shape";
import { mcpCaller } from "./authenticate";
import { requireOwnOrigin } from "./origin";
import { mcpRefusal } from "./refusal";
import { profileField } from "./registry";
import { createMcpServer } from "./server";
import type { ToolDef } from "./tool";

function refusal(error: QuorumError): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  // No resource_metadata: clients that probe OAuth discovery find 404s and report the key as the problem.
  if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="quorum"';
  return Response.json(mcpRefusal(error), { status: error.status, headers });
}

/** Answers one JSON-RPC POST with `tools`; `?profile=full|worker|chat` picks a subset of them (default full). */
export async function handleMcpPost(req: Request, ctx: ServerContext, tools: ToolDef[]): Promise<Response> {
  try {
    requireOwnOrigin(req, hubUrlSetting());
    const caller = await mcpCaller(ctx.db, req.headers.get("authorization"), ctx.clock);
    const parsed = profileField.safeParse(new URL(req.url).searchParams.get("profile") ?? "full");
    if (!parsed.success) throw fail.invalid("mcp", "profile must be full, worker or chat", { issues: parsed.error.issues });
    const server = createMcpServer({ ...ctx, caller, request: req }, parsed.data, tools);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // The SDK reads the body itself, chunk by chunk, and answers 413 past this (REST's cap too).
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      await server.close();
    }
  } catch (error) {
    if (error instanceof QuorumError) return refusal(error);
    console.error("unexpected error in the MCP endpoint", error);
    return Response.json(
      { error: "internal", message: "something went wrong on our side; the request changed nothing" },
      { status: 500, headers: { "Cache-Control": "no-store" } },
    );
  }
}

/** Stateless: there is no server-initiated stream to open and no session to delete. */
export function mcpNotAllowed(): Response {
  return Response.json(
    { error: "method_not_allowed", message: "this MCP endpoint is stateless: POST JSON-RPC to it" },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } },
  );
}

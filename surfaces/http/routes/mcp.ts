// The MCP surface mounted beside the REST routes: one POST (MCP reads its own body and answers its own refusals),
// and the methods a stateless server refuses.
import { z } from "zod";
import { errorBody } from "../errors";
import { toolsOf } from "../tools";
import { type RouteSpec, TAGS, endpoint } from "./route-spec";

export const MCP_ROUTES: RouteSpec[] = [
  endpoint({
    method: "post",
    path: "/api/mcp",
    tag: TAGS.surfaces,
    summary: "The MCP server (Streamable HTTP, stateless; a bearer key per request)",
    description: "JSON-RPC 2.0 messages; `?profile=full|worker|chat` picks the tools. See docs/API.md, Bring your own agent.",
    access: "bearer",
    query: z.strictObject({ profile: z.enum(["full", "worker", "chat"]).optional() }),
    body: z.looseObject({ jsonrpc: z.literal("2.0"), method: z.string() }),
    answers: [{ status: 200, description: "A JSON-RPC answer (JSON, or an event stream when asked)", schema: z.looseObject({ jsonrpc: z.literal("2.0") }) }],
    refusals: [403],
    // Loaded on the first call: the MCP SDK is most of what importing the API would cost a process that never serves MCP.
    run: async ({ ctx, request, routes }) => (await import("@/surfaces/mcp/endpoint")).handleMcpPost(request, ctx, toolsOf(routes)),
  }),
  endpoint({
    method: "get",
    path: "/api/mcp",
    tag: TAGS.surfaces,
    summary: "Not served: the MCP server is stateless (405)",
    access: "public",
    answers: [{ status: 405, description: "Method not allowed", schema: errorBody }],
    refusals: [],
    run: async () => (await import("@/surfaces/mcp/endpoint")).mcpNotAllowed(),
  }),
  endpoint({
    method: "delete",
    path: "/api/mcp",
    tag: TAGS.surfaces,
    summary: "Not served: the MCP server is stateless (405)",
    access: "public",
    answers: [{ status: 405, description: "Method not allowed", schema: errorBody }],
    refusals: [],
    run: async () => (await import("@/surfaces/mcp/endpoint")).mcpNotAllowed(),
  }),
];

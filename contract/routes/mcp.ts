// The MCP surface beside the REST routes: one POST, and the methods a stateless server refuses.
import { z } from "zod";
import { errorBody } from "../errors";
import { type RouteSpec, TAGS } from "./route-spec";

export const MCP_ROUTES: RouteSpec[] = [
  {
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
  },
  ...(["get", "delete"] as const).map(
    (method): RouteSpec => ({
      method,
      path: "/api/mcp",
      tag: TAGS.surfaces,
      summary: "Not served: the MCP server is stateless (405)",
      access: "public",
      answers: [{ status: 405, description: "Method not allowed", schema: errorBody }],
      refusals: [],
    }),
  ),
];

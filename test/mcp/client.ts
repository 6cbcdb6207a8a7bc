// Test fixtures for MCP: the SDK's own Client over Streamable HTTP (custom fetch into the route, or a real socket).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { apiRoute } from "../api";
const mcpRoute = apiRoute("/api/mcp");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
export interface Route {
  /** `/api/mcp`, or a pattern with `:name` segments. */
  path: string;
  handlers: Partial<Record<"GET" | "POST" | "DELETE", Handler>>;
}

export const MCP_ROUTE: Route = { path: "/api/mcp", handlers: mcpRoute };

function matchRoute(routes: Route[], pathname: string) {
  for (const route of routes) {
    const names: string[] = [];
    const pattern = route.path.replace(/:(\w+)/g, (_, n: string) => {
      names.push(n);
      return "([^/]+)";
    });
    const re = new RegExp(`^${pattern}$`);
    const m = re.exec(pathname);
    if (m) return { route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
  }
  return null;
}

/** Hands a web-standard Request to the matching route handler, as Next would. */
export async function dispatch(routes: Route[], request: Request): Promise<Response> {
  const found = matchRoute(routes, new URL(request.url).pathname);
  const handler = found?.route.handlers[request.method as "GET" | "POST" | "DELETE"];
  if (!found || !handler) return Response.json({ error: "not_found", message: "no such route" }, { status: 404 });
  return handler(request, { params: Promise.resolve(found.params) });
}

/** A fetch that never leaves the process: the SDK client talks straight to the route handler. */
export function routeFetch(routes: Route[] = [MCP_ROUTE]) {
  return (url: string | URL, init?: RequestInit) => dispatch(routes, new Request(url, init));
}

export async function httpClient(key: string, profile?: string): Promise<Client> {
  const url = new URL(`http://localhost/api/mcp${profile ? `?profile=${profile}` : ""}`);
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: routeFetch(),
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "quorum-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function toRequest(req: IncomingMessage, base: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = chunks.length > 0 && req.method !== "GET" ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? "/", base), { method: req.method, headers, body });
}

/** A real HTTP server over route handlers, for clients in another process (`quorum mcp`, the git hook). */
export async function serve(routes: Route[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const response = await dispatch(routes, await toRequest(req, "http://127.0.0.1"));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A tool's structured content: each tool has its own shape, and the tests read and assert it field by field. */
// biome-ignore lint/suspicious/noExplicitAny: structured content differs per tool; tests navigate it freely and assert every field they read
type Structured = Record<string, any>;

/** Calls a tool that must succeed; returns its structured content. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
  expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(result.structuredContent);
  return result.structuredContent as Structured;
}

/** Calls a tool that must be refused; returns the error body (the same as REST's). */
export async function refused(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name} should be refused: ${JSON.stringify(result.structuredContent)}`).toBe(true);
  return result.structuredContent as Structured;
}

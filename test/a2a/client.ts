// Test fixtures for A2A: the A2A project's own client (ClientFactory, JSON-RPC transport) talking to Quorum's
// route handlers in process, with an agent's key, and a raw JSON-RPC caller for what a client library would not send.
import { SendMessageRequest } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import * as cardRoute from "../../app/.well-known/agent-card.json/route";
const a2aRoute = apiRoute("/api/a2a");
import { dispatch, type Route } from "../mcp/client";
import { apiRoute } from "../api";

export const A2A_ROUTES: Route[] = [
  { path: "/api/a2a", handlers: a2aRoute },
  { path: "/.well-known/agent-card.json", handlers: cardRoute },
];

/** A fetch into the routes, as `key` (none: anonymous). */
export function a2aFetch(key?: string): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    const request = new Request(url, init);
    if (key && !request.headers.has("authorization")) request.headers.set("authorization", `Bearer ${key}`);
    return dispatch(A2A_ROUTES, request);
  }) as typeof fetch;
}

/** The SDK's client for the hub at `base` (whose card names `base`/api/a2a), acting with `key`. */
export async function a2aClient(key: string, options: { base?: string; polling?: boolean } = {}): Promise<Client> {
  const fetchImpl = a2aFetch(key);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      clientConfig: { polling: options.polling ?? true },
    }),
  );
  return factory.createFromUrl(options.base ?? "http://localhost");
}

/** One raw JSON-RPC call: the HTTP status and the parsed body (or the event stream's text). */
export async function rpc(key: string | undefined, method: string, params: unknown, headers: Record<string, string> = {}) {
  const response = await a2aFetch(key)("http://localhost/api/a2a", {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0", host: "localhost", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    body: response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text,
  };
}

/** SendMessage's params from their JSON form (as the wire and the spec write them). */
export function sendParams(json: Record<string, unknown>): SendMessageRequest {
  return SendMessageRequest.fromJSON(json);
}

let counter = 0;
/** A user's message of text (first) and data parts, in JSON form. */
export function message(text: string | null, data?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    messageId: `m-${Date.now().toString(36)}-${counter++}`,
    role: "ROLE_USER",
    parts: [...(text === null ? [] : [{ text }]), ...(data ? [{ data }] : [])],
    ...extra,
  };
}

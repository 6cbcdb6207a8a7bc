// quorum/client: a typed REST client for agents written in TypeScript, on openapi-fetch and the types
// generated from Quorum's OpenAPI document (client/schema.ts, `npm run client:generate`).
import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./schema";

export type { components, operations, paths };
export type QuorumClient = Client<paths>;
/** A view or refusal body by its document name: `Schema<"Task">`, `Schema<"Stale">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

export interface QuorumClientOptions {
  /** Where Quorum answers, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An agent's key (`qk_…`), sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** A human's session cookie (`quorum_session=…`), instead of a key. */
  cookie?: string;
  headers?: Record<string, string>;
  fetch?: (request: Request) => Promise<Response>;
}

/** `const quorum = quorumClient({ baseUrl, key }); const { data, error } = await quorum.POST("/api/tasks/claim-next")`. */
export function quorumClient(options: QuorumClientOptions): QuorumClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  return createClient<paths>({ baseUrl: options.baseUrl, headers, ...(options.fetch ? { fetch: options.fetch } : {}) });
}

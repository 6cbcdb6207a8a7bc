// Shared test fixtures: principals with credentials, and requests to route handlers.
import { randomBytes } from "node:crypto";
import { getDb } from "../db/client";
import { systemClock } from "../domain/clock";
import { createAgent, ensureHuman } from "../domain/principals/create-principal";
import { redeemSignInLink, issueSignInLink, SESSION_COOKIE } from "../domain/principals/sign-in";
import type { Principal } from "../domain/principal";

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString("hex")}`;
}

export async function makeAgent(name = uniqueName("agent"), role = "coder"): Promise<Principal & { key: string }> {
  return createAgent(getDb(), null, { name, role }, systemClock);
}

export async function makeHuman(name = uniqueName("human")): Promise<Principal & { cookie: string }> {
  const db = getDb();
  const human = await ensureHuman(db, name, systemClock);
  const token = await issueSignInLink(db, human, systemClock);
  const { sessionToken } = await redeemSignInLink(db, token, systemClock);
  return { ...human, cookie: `${SESSION_COOKIE}=${sessionToken}` };
}

/** A route handler; `P` is the shape of its dynamic segments (`{ id: string }`), as Next passes them. */
type Handler<P extends Record<string, string>> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response> | Response;

export interface CallOptions<P extends Record<string, string> = Record<string, string>> {
  method?: string;
  body?: unknown;
  /** An agent or human bearer key. */
  key?: string;
  /** A session cookie (`quorum_session=…`). */
  cookie?: string;
  params?: P;
  headers?: Record<string, string>;
}

/** Calls a route handler exactly as Next would, with a real Request. */
export async function call<P extends Record<string, string>>(handler: Handler<P>, path: string, options: CallOptions<P> = {}) {
  const headers: Record<string, string> = { host: "localhost", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body),
  });
  // No params given (a route without dynamic segments): the handler gets an empty object, as Next gives it.
  const response = await handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

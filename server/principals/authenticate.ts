// Resolves the caller of a request: a bearer key (agents, humans) or a session cookie (humans).
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { apiKeys, principals, sessions } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { hashSecret } from "./secrets";
import { sessionTokenOf } from "./session-cookie";
import { toPrincipal, type Principal } from "../principal";

export const PRESENCE_WINDOW_MS = 2 * 60 * 1000;
/** last_seen_at is refreshed at most this often per principal, to keep reads from writing. */
const PRESENCE_WRITE_INTERVAL_MS = 15 * 1000;

export interface RequestCredentials {
  method: string;
  authorization?: string | null;
  cookie?: string | null;
  contentType?: string | null;
  origin?: string | null;
  host?: string | null;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A cookie can be sent by any site the human visits, so a state change made with one must be
 * JSON (which a plain HTML form cannot send) and, when the browser names an Origin, ours. Only a POST
 * needs the JSON content type: a form sends no other method, and another site's script sending one
 * (a bodiless DELETE, say) must first pass a CORS preflight, which Quorum never grants.
 */
function checkCrossSite(request: RequestCredentials): void {
  const method = request.method.toUpperCase();
  if (SAFE_METHODS.has(method)) return;
  if (method === "POST" && !(request.contentType ?? "").toLowerCase().startsWith("application/json")) {
    throw fail.forbidden("auth", "a state-changing request signed in by cookie must send Content-Type: application/json");
  }
  if (request.origin && request.host) {
    let originHost: string | undefined;
    try {
      originHost = new URL(request.origin).host;
    } catch {
      originHost = undefined;
    }
    if (originHost !== request.host) throw fail.forbidden("auth", `cross-site request from ${request.origin} refused`);
  }
}

export async function authenticate(db: Db, request: RequestCredentials, clock: Clock): Promise<Principal | null> {
  const now = clock.now();
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? "")?.[1];
  let row: typeof principals.$inferSelect | undefined;
  if (bearer) {
    [row] = await db
      .select({ principal: principals })
      .from(apiKeys)
      .innerJoin(principals, eq(principals.id, apiKeys.principalId))
      .where(and(eq(apiKeys.keyHash, hashSecret(bearer)), isNull(apiKeys.revokedAt)))
      .then((rows) => rows.map((r) => r.principal));
    if (!row) throw fail.unauthorized("this key is unknown or revoked");
  } else {
    const token = sessionTokenOf(request.cookie);
    if (!token) return null;
    [row] = await db
      .select({ principal: principals })
      .from(sessions)
      .innerJoin(principals, eq(principals.id, sessions.principalId))
      .where(and(eq(sessions.tokenHash, hashSecret(token)), gt(sessions.expiresAt, now)))
      .then((rows) => rows.map((r) => r.principal));
    if (!row) return null;
    checkCrossSite(request);
  }
  await touchPresence(db, row.id, now);
  return toPrincipal(row);
}

/** Any authenticated call marks its principal present (seen within the last 2 minutes). */
export async function touchPresence(db: Db, principalId: string, now: Date): Promise<void> {
  await db
    .update(principals)
    .set({ lastSeenAt: now })
    .where(and(eq(principals.id, principalId), or(isNull(principals.lastSeenAt), lt(principals.lastSeenAt, new Date(now.getTime() - PRESENCE_WRITE_INTERVAL_MS)))));
}

export async function requireCaller(db: Db, request: RequestCredentials, clock: Clock): Promise<Principal> {
  const caller = await authenticate(db, request, clock);
  if (!caller) throw fail.unauthorized();
  return caller;
}

/**
 * The caller of a surface agents reach with a key on every request (MCP, A2A): stateless, so there is no session
 * to hijack or to lose across instances, and cookies are refused so no web page can act with a human's session.
 */
export async function requireBearerCaller(db: Db, authorization: string | null, clock: Clock): Promise<Principal> {
  if (!/^Bearer\s+\S+$/i.test(authorization ?? "")) throw fail.unauthorized("send Authorization: Bearer <your Quorum key>");
  const caller = await authenticate(db, { method: "POST", authorization }, clock);
  if (!caller) throw fail.unauthorized("this key is unknown or revoked");
  return caller;
}

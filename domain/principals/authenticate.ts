// Resolves the caller of a request: a bearer key (agents, humans) or a session cookie (humans).
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail, type QuorumError } from "../errors";
import { rawClientOf } from "../raw-sql";
import { hashSecret } from "./secrets";
import { sessionTokenOf } from "./session-cookie";
import type { Principal } from "../principal";

export const PRESENCE_WINDOW_MS = 2 * 60 * 1000;

/**
 * The one rule of presence: seen within the window. `presentForMs` is how much longer that holds from `now`,
 * so a browser judges the lapse on its own clock from when the answer arrived, whatever its clock says.
 */
export function presenceOf(lastSeenAt: Date | null, now: Date): { present: boolean; presentForMs: number } {
  const presentForMs = lastSeenAt === null ? 0 : Math.max(0, lastSeenAt.getTime() + PRESENCE_WINDOW_MS - now.getTime());
  return { present: presentForMs > 0, presentForMs };
}
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
export function crossSiteRefusal(request: RequestCredentials): QuorumError | null {
  const method = request.method.toUpperCase();
  if (SAFE_METHODS.has(method)) return null;
  if (method === "POST" && !(request.contentType ?? "").toLowerCase().startsWith("application/json")) {
    return fail.forbidden("auth", "a state-changing request signed in by cookie must send Content-Type: application/json");
  }
  if (request.origin && request.host) {
    let originHost: string | undefined;
    try {
      originHost = new URL(request.origin).host;
    } catch {
      originHost = undefined;
    }
    if (originHost !== request.host) return fail.forbidden("auth", `cross-site request from ${request.origin} refused`);
  }
  return null;
}

/**
 * The credential's principal and the presence touch, in one prepared statement: one round trip, on the live
 * rows. There is no cache of credentials in any process, so a key rotated or revoked, or a session signed out,
 * by any connection of any `quorum start` on the database is refused from the next request on; a cache would
 * need a freshness check per request, which costs the same round trip as this lookup (DESIGN.md §3).
 * `touch` is false for a request that is refused all the same (a cross-site one), which must not mark anyone present.
 */
async function principalOf(db: Db, by: "key" | "session", hash: string, now: Date, touch: boolean): Promise<Principal | undefined> {
  const sql = rawClientOf(db);
  const at = now.toISOString();
  const stale = new Date(now.getTime() - PRESENCE_WRITE_INTERVAL_MS).toISOString();
  const rows =
    by === "key"
      ? await sql<Principal[]>`
          with found as (
            select p.id, p.kind, p.name, p.role from api_keys k join principals p on p.id = k.principal_id
            where k.key_hash = ${hash} and k.revoked_at is null
          ), seen as (
            update principals set last_seen_at = ${at}::timestamptz from found
            where ${touch}::boolean and principals.id = found.id and (principals.last_seen_at is null or principals.last_seen_at < ${stale}::timestamptz)
          )
          select id, kind, name, role from found`
      : await sql<Principal[]>`
          with found as (
            select p.id, p.kind, p.name, p.role from sessions s join principals p on p.id = s.principal_id
            where s.token_hash = ${hash} and s.expires_at > ${at}::timestamptz and p.removed_at is null
          ), seen as (
            update principals set last_seen_at = ${at}::timestamptz from found
            where ${touch}::boolean and principals.id = found.id and (principals.last_seen_at is null or principals.last_seen_at < ${stale}::timestamptz)
          )
          select id, kind, name, role from found`;
  const [row] = rows;
  return row && { id: row.id, kind: row.kind, name: row.name, role: row.role };
}

export async function authenticate(db: Db, request: RequestCredentials, clock: Clock): Promise<Principal | null> {
  const now = clock.now();
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? "")?.[1];
  if (bearer) {
    const principal = await principalOf(db, "key", hashSecret(bearer), now, true);
    if (!principal) throw fail.unauthorized("this key is unknown or revoked");
    return principal;
  }
  const token = sessionTokenOf(request.cookie);
  if (!token) return null;
  const refusal = crossSiteRefusal(request);
  const principal = await principalOf(db, "session", hashSecret(token), now, !refusal);
  if (!principal) return null;
  if (refusal) throw refusal;
  return principal;
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

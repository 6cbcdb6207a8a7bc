// Who may read /metrics. A scraper on the same machine reads it without a key (Prometheus beside Quorum, the
// usual set-up); from elsewhere it takes a human's session or the scraper's own token, QUORUM_METRICS_TOKEN. An
// agent's key is refused: the figures describe every agent and the hub, not the agent's own work.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { authenticate, type RequestCredentials } from "../principals/authenticate";
import { hostIsOwn } from "../request-origin";

/** The headers a reverse proxy adds: a request carrying one came through a proxy, whatever its socket's address. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"] as const;

/**
 * Whether a request came from this machine itself: its socket's peer is a loopback address, no proxy
 * relayed it, and it was sent to this hub by a name no DNS answer can stand in for (a browser page rebound
 * to 127.0.0.1 sends its own name as Host). A reverse proxy on this machine connects from loopback on behalf
 * of anyone, so a request naming a forwarded client is treated as remote (a proxy that forwards /metrics
 * without those headers makes it public: don't route /metrics through one, or send the token).
 */
export function fromThisMachine(remoteAddress: string | undefined, headers: { get(name: string): string | null }, hubUrl?: string): boolean {
  if (!remoteAddress || !hostIsOwn(headers.get("host"), hubUrl)) return false;
  const address = remoteAddress.startsWith("::ffff:") ? remoteAddress.slice(7) : remoteAddress;
  const loopback = address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
  return loopback && FORWARDING_HEADERS.every((name) => headers.get(name) === null);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compared in constant time (on digests, so the token's length does not show either). */
function isMetricsToken(authorization: string | null | undefined, token: string | undefined): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  return token !== undefined && bearer !== undefined && timingSafeEqual(digest(bearer), digest(token));
}

export interface MetricsReader extends RequestCredentials {
  /** From `fromThisMachine`; false where the surface cannot know (`next start` hands routes no socket). */
  local: boolean;
}

/**
 * Resolves when `reader` may read the metrics; otherwise throws 401 (no credentials, or an unknown key or
 * token) or 403 (an agent's key). `token` is QUORUM_METRICS_TOKEN (domain/config.ts), if set.
 */
export async function requireMetricsReader(db: Db, reader: MetricsReader, token: string | undefined, clock: Clock): Promise<void> {
  if (reader.local || isMetricsToken(reader.authorization, token)) return;
  // A bearer that is neither the token nor a live key is refused by authenticate (401, "unknown or revoked").
  const caller = await authenticate(db, reader, clock);
  if (!caller) throw fail.unauthorized("send Authorization: Bearer $QUORUM_METRICS_TOKEN, or sign in as a human");
  if (caller.kind !== "human") throw fail.forbidden("metrics", "the metrics are read by humans and the operator's scraper (QUORUM_METRICS_TOKEN), not with an agent's key");
}

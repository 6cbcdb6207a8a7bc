// Endpoints that agents call with a key from outside a browser (MCP, A2A) check Origin on every request, as the MCP
// spec asks: a web page the browser fetched from attacker.example can rebind that name to 127.0.0.1 and then
// drive a local hub with keys it found.
import { isIP } from "node:net";
import { fail } from "./errors";

/** A host no DNS answer can stand in for: `localhost` or an IP literal. */
function isLiteralHost(hostname: string): boolean {
  return hostname === "localhost" || isIP(hostname.replace(/^\[|\]$/g, "")) !== 0;
}

/**
 * Whether a request's Host header names this hub, as no rebound name can: `localhost` or an IP literal (with
 * any port), or QUORUM_URL's own host. A page at attacker.example rebound to 127.0.0.1 sends its own name.
 */
export function hostIsOwn(host: string | null, hubUrl: string | undefined): boolean {
  if (host === null) return false;
  if (hubUrl && URL.canParse(hubUrl) && new URL(hubUrl).host === host.toLowerCase()) return true;
  return URL.canParse(`http://${host}`) && isLiteralHost(new URL(`http://${host}`).hostname);
}

/**
 * Whether a request with this Origin may be served. No Origin (CLI clients, the stdio relay, agent frameworks)
 * is served. A browser's Origin is served only when it is the hub's own: the origin of QUORUM_URL, or the very
 * host the request was sent to when that host is `localhost` or an IP literal. A name that merely equals the
 * Host header proves nothing: after a rebinding, the attacker's page and its requests both say `attacker.example`.
 */
export function originAllowed(origin: string | null, host: string | null, hubUrl: string | undefined): boolean {
  if (origin === null) return true;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) or garbage
  }
  if (hubUrl && URL.canParse(hubUrl) && new URL(hubUrl).origin === from.origin) return true;
  return host !== null && from.host === host.toLowerCase() && isLiteralHost(from.hostname);
}

/** Refuses a request from a page of another origin (403), before its key is even looked at; `hubUrl` is QUORUM_URL as set. */
export function requireOwnOrigin(req: Request, hubUrl: string | undefined, surface: "mcp" | "a2a"): void {
  const origin = req.headers.get("origin");
  if (!originAllowed(origin, req.headers.get("host"), hubUrl)) {
    const clients = surface === "mcp" ? "MCP clients" : "A2A clients";
    throw fail.forbidden(surface, `requests from the web page at ${origin} are refused: ${clients} call from outside a browser, or from this hub's own origin`);
  }
}

// The MCP spec asks servers to check Origin on every request (DNS rebinding); the rule is domain/request-origin.ts's.
import { requireOwnOrigin as requireOwn } from "../../domain/request-origin";

export { originAllowed } from "../../domain/request-origin";

/** Refuses a request from a page of another origin (403), before its key is even looked at; `hubUrl` is QUORUM_URL as set. */
export function requireOwnOrigin(req: Request, hubUrl: string | undefined): void {
  requireOwn(req, hubUrl, "mcp");
}

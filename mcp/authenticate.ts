// Who an MCP request acts as: a bearer key on every request (stateless), never a cookie and never a session.
import type { ServerContext } from "../server/context";
import { fail } from "../server/errors";
import { authenticate } from "../server/principals/authenticate";
import type { Principal } from "../server/principal";

/**
 * Each HTTP request carries its key and is resolved on its own: there is no MCP session to hijack
 * or to lose across instances and restarts. Cookies are refused so no web page can drive a human's tools.
 */
export async function mcpCaller(db: ServerContext["db"], authorization: string | null, clock: ServerContext["clock"]): Promise<Principal> {
  if (!/^Bearer\s+\S+$/i.test(authorization ?? "")) throw fail.unauthorized("send Authorization: Bearer <your Quorum key>");
  const caller = await authenticate(db, { method: "POST", authorization }, clock);
  if (!caller) throw fail.unauthorized("this key is unknown or revoked");
  return caller;
}

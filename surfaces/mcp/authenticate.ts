// Who an MCP request acts as: a bearer key on every request (stateless), never a cookie and never a session.
import type { ServerContext } from "../../domain/context";
import { requireBearerCaller } from "../../domain/principals/authenticate";
import type { Principal } from "../../domain/principal";

/** Each HTTP request carries its key and is resolved on its own (domain/principals/authenticate.ts says why). */
export function mcpCaller(db: ServerContext["db"], authorization: string | null, clock: ServerContext["clock"]): Promise<Principal> {
  return requireBearerCaller(db, authorization, clock);
}

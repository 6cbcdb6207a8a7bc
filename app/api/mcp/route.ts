// The MCP endpoint: the surface lives in mcp/; this route only hands it the request and the server context.
import { handleMcpPost, mcpNotAllowed } from "@/mcp/endpoint";
import { appContext } from "../_lib/http";

export const dynamic = "force-dynamic";

/** `?profile=full|worker|chat` picks the tool subset (default full). */
export async function POST(req: Request) {
  return handleMcpPost(req, appContext());
}

export const GET = mcpNotAllowed;
export const DELETE = mcpNotAllowed;

// `quorum mcp`: MCP over stdio for clients that prefer a command; each message is relayed to the hub's /api/mcp.
//
// A relay, not a second server: the process needs only QUORUM_URL and QUORUM_KEY (no database
// credentials), so it runs on any machine that reaches the hub, and every call meets the same
// authentication, gates and server functions as Streamable HTTP and REST. Being stateless upstream,
// it survives hub restarts and works behind several app instances.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { agentKeySetting, appUrl } from "../domain/config";

export function mcpEndpoint(base: string, profile?: string): URL {
  const url = new URL("/api/mcp", base);
  if (profile) url.searchParams.set("profile", profile);
  return url;
}

function requestId(message: JSONRPCMessage): string | number | undefined {
  return "method" in message && "id" in message ? message.id : undefined;
}

export async function mcpCommand(profile?: string): Promise<number> {
  const key = agentKeySetting();
  if (!key) {
    console.error("quorum mcp: set QUORUM_KEY to the agent's key (`quorum connect … --agent NAME` prints one) and QUORUM_URL to the hub");
    return 1;
  }
  const upstream = new StreamableHTTPClientTransport(mcpEndpoint(appUrl(), profile), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const local = new StdioServerTransport();
  upstream.onmessage = (message) => {
    // The hub checks the protocol version header on every request after initialize.
    const result = "result" in message ? (message.result as { protocolVersion?: unknown }) : undefined;
    if (typeof result?.protocolVersion === "string") upstream.setProtocolVersion(result.protocolVersion);
    void local.send(message);
  };
  upstream.onerror = (error) => console.error(`quorum mcp: ${error.message}`);
  local.onmessage = (message) => {
    upstream.send(message).catch((error: Error) => {
      // A request the hub refused at the HTTP level (a bad key, the hub down) still gets its answer.
      const id = requestId(message);
      if (id !== undefined) void local.send({ jsonrpc: "2.0", id, error: { code: -32000, message: `Quorum hub: ${error.message}` } });
      else console.error(`quorum mcp: ${error.message}`);
    });
  };
  const closed = new Promise<number>((resolve) => {
    local.onclose = () => {
      void upstream.close().finally(() => resolve(0));
    };
  });
  process.stdin.on("end", () => void local.close());
  await upstream.start();
  await local.start();
  return closed;
}

// Builds the MCP server for one authenticated caller and one request (stateless): tools, resources, instructions.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { QuorumError } from "../../domain/errors";
import { QUORUM_VERSION } from "../../domain/version";
import { MAX_WAIT_SECONDS } from "../../domain/journal/wait-for-events";
import { toolInputSchema, toolOutputSchema, type JsonSchema } from "./json-schema";
import { toolsFor, type Profile } from "./registry";
import { mcpRefusal } from "./refusal";
import { readResource, RESOURCES } from "./resources";
import { callTool, type ToolContext, type ToolDef } from "./tool";

export const SERVER_INFO = { name: "quorum", version: QUORUM_VERSION };

const INSTRUCTIONS = `You are an agent in Quorum, acting as the principal of your key. Mail: read_inbox (never acks), then ack_messages up to the last seq you handled. A broadcast refused as stale carries the unread messages and a holdToken: read them, then retry with holdToken (or ack first). Tasks: claim_next_task, keep its fence, heartbeat before leaseExpiresAt, append_output as you go (with from, so a retry is not stored twice), submit_task with evidence. Reserve paths before editing (reserve_paths) and release after committing. wait_for_events long-polls for news (≤${MAX_WAIT_SECONDS} s). After each model call you make, report its tokens with report_usage, so your spend shows on the Bill. A refusal is a tool error whose structured content is {error, message, hint?, …}; hint names the next call.`;

export interface ToolListing {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolDef["annotations"];
}

const listings = new Map<string, ToolListing>();

/** A tool as tools/list shows it; computed once per process (the schemas never change at run time). */
export function toolListing(tool: ToolDef): ToolListing {
  let listing = listings.get(tool.name);
  if (!listing) {
    listing = {
      name: tool.name,
      description: tool.description,
      inputSchema: toolInputSchema(tool.params, tool.input),
      outputSchema: toolOutputSchema(tool.output),
      annotations: tool.annotations,
    };
    listings.set(tool.name, listing);
  }
  return listing;
}

/**
 * A JSON-RPC error as the SDK sends it (`code`, `message`, `data`). Not the SDK's McpError: that one bakes
 * "MCP error <code>: " into its message, and the client adds the same prefix again on its side.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The error it was made from, kept for logs; the SDK sends only `code`, `message` and `data`. */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProtocolError";
  }
}

export function createMcpServer(ctx: ToolContext, profile: Profile, all: ToolDef[]): Server {
  const tools = toolsFor(profile, all);
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `no tool '${request.params.name}' in the ${profile} profile`);
    return callTool(tool, { ...ctx, signal: extra.signal }, request.params.arguments ?? {});
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ uri, name, description }) => ({ uri, name, description, mimeType: "application/json" })),
  }));
  // Every resource has a fixed URI: there are no templates, and clients that ask (Python's SDK, the Inspector) get an empty list.
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return await readResource(request.params.uri, ctx);
    } catch (error) {
      if (error instanceof QuorumError) throw new ProtocolError(ErrorCode.InvalidParams, error.message, mcpRefusal(error), { cause: error });
      throw error;
    }
  });
  return server;
}

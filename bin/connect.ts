// `quorum connect claude|codex|cursor --agent NAME`: registers the agent if needed and prints that client's configuration.
import { eq } from "drizzle-orm";
import { fileURLToPath } from "node:url";
import { principals } from "../db/schema";
import type { Db } from "../db/client";
import { fail } from "../domain/errors";
import { createAgent } from "../domain/principals/create-principal";
import { rotateAgentKey } from "../domain/principals/keys";
import { mcpEndpoint } from "./mcp";
import { systemClock } from "../domain/clock";

export const CLIENTS = ["claude", "codex", "cursor"] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface Credentials {
  name: string;
  key: string;
  /** False when the agent existed: its key was rotated (the new one issued, every old one revoked). */
  created: boolean;
}

/** The agent's key: a new agent with its first key, or an existing agent's key rotated, so it has one live key, not two. */
export async function credentialsFor(db: Db, name: string, role: string): Promise<Credentials> {
  const [existing] = await db.select().from(principals).where(eq(principals.name, name));
  if (!existing) {
    const agent = await createAgent(db, null, { name, role }, systemClock);
    return { name: agent.name, key: agent.key, created: true };
  }
  if (existing.kind !== "agent") throw fail.conflict("principal", "name_taken", `'${name}' is a ${existing.kind}, not an agent`);
  return { name, key: (await rotateAgentKey(db, null, existing.id, systemClock)).key, created: false };
}

/** This checkout's CLI, for clients that start `quorum mcp` as a command on the hub's machine. */
const QUORUM_BIN = fileURLToPath(new URL("./quorum.sh", import.meta.url));

export interface ConnectOptions {
  base: string;
  key: string;
  profile?: string;
}

/** The exact configuration for one client: over HTTP with a bearer header, and the stdio alternative. */
export function clientConfig(client: ClientName, { base, key, profile }: ConnectOptions): string {
  const url = mcpEndpoint(base, profile && profile !== "full" ? profile : undefined).toString();
  const stdioEnv = { QUORUM_URL: base, QUORUM_KEY: key };
  const args = profile && profile !== "full" ? ["mcp", "--profile", profile] : ["mcp"];
  if (client === "claude") {
    const json = { mcpServers: { quorum: { type: "http", url, headers: { Authorization: `Bearer ${key}` } } } };
    return [
      "Claude Code — run:",
      `  claude mcp add --transport http quorum "${url}" --header "Authorization: Bearer ${key}"`,
      "or put this in .mcp.json at the project root:",
      JSON.stringify(json, null, 2),
      "stdio instead (on this machine):",
      `  claude mcp add quorum --env QUORUM_URL=${base} --env QUORUM_KEY=${key} -- ${QUORUM_BIN} ${args.join(" ")}`,
    ].join("\n");
  }
  if (client === "codex") {
    return [
      "Codex CLI — add to ~/.codex/config.toml (or .codex/config.toml in a trusted project):",
      "[mcp_servers.quorum]",
      `url = "${url}"`,
      'bearer_token_env_var = "QUORUM_KEY"',
      "and export the key where Codex runs:",
      `  export QUORUM_KEY=${key}`,
      "stdio instead (on this machine):",
      "[mcp_servers.quorum]",
      `command = "${QUORUM_BIN}"`,
      `args = [${args.map((a) => `"${a}"`).join(", ")}]`,
      `env = { QUORUM_URL = "${base}", QUORUM_KEY = "${key}" }`,
    ].join("\n");
  }
  const json = { mcpServers: { quorum: { url, headers: { Authorization: `Bearer ${key}` } } } };
  const stdio = { mcpServers: { quorum: { command: QUORUM_BIN, args, env: stdioEnv } } };
  return [
    "Cursor — put this in .cursor/mcp.json (this project) or ~/.cursor/mcp.json (every project):",
    JSON.stringify(json, null, 2),
    "stdio instead (on this machine):",
    JSON.stringify(stdio, null, 2),
  ].join("\n");
}

/** The command a client's Stop hook runs to put the agent's model calls on the Bill (`quorum hook usage`). */
export function usageHookCommand(client: "claude" | "codex", { base, key }: Pick<ConnectOptions, "base" | "key">): string {
  return `QUORUM_URL=${base} QUORUM_KEY=${key} ${QUORUM_BIN} hook usage ${client}`;
}

/**
 * How the client's own hooks report its model calls to the Bill, where it offers a hook that can: Claude Code and
 * Codex run a Stop hook after each reply and name the session's transcript, which records each call's tokens.
 */
export function usageWiring(client: ClientName, options: Pick<ConnectOptions, "base" | "key">): string {
  if (client === "cursor") {
    return [
      "Its spend on the Bill: Quorum has no usage hook for Cursor (it does not know where Cursor records a model call's tokens);",
      "the agent reports its own calls with the report_usage tool, as Quorum's MCP instructions ask.",
    ].join("\n");
  }
  const hooks = { hooks: { Stop: [{ hooks: [{ type: "command", command: usageHookCommand(client, options) }] }] } };
  const where =
    client === "claude"
      ? "Claude Code's Stop hook, after each reply — in .claude/settings.json (this project) or ~/.claude/settings.json (every project):"
      : "Codex's Stop hook, after each turn — in ~/.codex/hooks.json (or .codex/hooks.json in a trusted project; a Codex from before hooks were on by default also wants `[features] codex_hooks = true` in config.toml):";
  return [`Its spend on the Bill, marked self-reported: ${where}`, JSON.stringify(hooks, null, 2), "It reads the session's transcript and reports each model call once."].join(
    "\n",
  );
}

export function connectBanner(credentials: Credentials): string {
  const how = credentials.created ? `Agent ${credentials.name} registered.` : `Agent ${credentials.name} exists; its key was rotated (its old keys no longer work).`;
  return `${how} The key is shown only now — keep it secret. Guard a repository's commits with \`quorum hook install\`.`;
}

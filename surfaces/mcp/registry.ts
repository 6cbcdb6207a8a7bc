// The profiles that expose a subset of the MCP tools to keep an agent's context small. The tools themselves are the
// endpoints' declarations that have a tool face (surfaces/http/tools.ts), handed in by the HTTP API.
import { z } from "zod";
import type { ToolDef } from "./tool";

export const PROFILES = ["full", "worker", "chat"] as const;
export type Profile = (typeof PROFILES)[number];
export const profileField = z.enum(PROFILES);

/** worker: take a task, do it, say so; chat: talk in the room. full: everything an agent may do over REST. */
const SUBSETS: Record<Exclude<Profile, "full">, string[]> = {
  worker: [
    "whoami",
    "wait_for_events",
    "read_inbox",
    "post_message",
    "ack_messages",
    "claim_next_task",
    "get_task",
    "heartbeat",
    "append_output",
    "submit_task",
    "reserve_paths",
    "renew_reservation",
    "release_reservation",
    "check_paths",
    "report_usage",
  ],
  chat: ["whoami", "wait_for_events", "list_rooms", "read_messages", "read_inbox", "post_message", "ack_messages", "read_cursor", "room_presence", "list_agents", "report_usage"],
};

export function toolsFor(profile: Profile, tools: ToolDef[]): ToolDef[] {
  if (profile === "full") return tools;
  const names = new Set(SUBSETS[profile]);
  return tools.filter((tool) => names.has(tool.name));
}

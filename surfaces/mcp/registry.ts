// Every MCP tool, and the profiles that expose a subset of them to keep an agent's context small.
import { z } from "zod";
import type { ToolDef } from "./tool";
import { decisionTools } from "./tools/decision-tools";
import { reservationTools } from "./tools/reservation-tools";
import { roomTools } from "./tools/room-tools";
import { taskTools } from "./tools/task-tools";
import { teamTools } from "./tools/team-tools";

export const ALL_TOOLS: ToolDef[] = [...teamTools, ...roomTools, ...taskTools, ...decisionTools, ...reservationTools];

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

export function toolsFor(profile: Profile): ToolDef[] {
  if (profile === "full") return ALL_TOOLS;
  const names = new Set(SUBSETS[profile]);
  return ALL_TOOLS.filter((tool) => names.has(tool.name));
}

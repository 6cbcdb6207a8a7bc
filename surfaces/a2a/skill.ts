// An A2A skill as the card shows it and SendMessage runs it. Each is derived from an endpoint's declaration
// (surfaces/http/skills.ts): the message becomes that endpoint's body, read by its own schema, run by its own `run`.
import type { AgentSkill } from "@a2a-js/sdk";
import type { ServerContext } from "../../domain/context";
import type { TeamStatus } from "../../domain/flights/team-status";
import type { Principal } from "../../domain/principal";

/** What a message carries once its parts are read: its text, the fields of its one data part, its contextId. */
export interface SkillMessage {
  text: string;
  fields: Record<string, unknown>;
  contextId?: string;
}

export interface SkillDef {
  id: string;
  name: string;
  /** The skill a message that names none gets. */
  isDefault: boolean;
  /** The card's entry; the team's state may be part of its words. */
  card: (team: TeamStatus) => AgentSkill;
  /** Files what the message asks for and returns the id of the task that stands for it. */
  send: (ctx: ServerContext, caller: Principal, message: SkillMessage, request: Request) => Promise<string>;
}

/** The card's entry for a skill: Quorum reads text and one JSON data part, and answers text. */
export function skillCard(s: Pick<AgentSkill, "id" | "name" | "description" | "tags" | "examples">): AgentSkill {
  return { ...s, inputModes: ["text/plain", "application/json"], outputModes: ["text/plain"], securityRequirements: [] };
}

/** The first non-blank line, cut to `max` characters: a task's title from a message's text. */
export function firstLine(text: string, max: number): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** How a Quorum task's status reads as A2A's task state (./state.ts maps it), in the words every skill's card uses. */
export const TASK_STATES =
  "States: ready or in progress → WORKING; in review → INPUT_REQUIRED (its approver decides: accept, or reject back to WORKING); accepted → COMPLETED; cancelled → CANCELED.";

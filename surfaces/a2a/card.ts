// Quorum's A2A agent card (/.well-known/agent-card.json): who answers, where (the JSON-RPC interface at
// QUORUM_URL's /api/a2a), with what key, and the skills a caller chooses between, each derived from the endpoint
// it stands for (a task on the board: POST /api/tasks; a goal for the built-in team: POST /api/flights).
import { A2A_PROTOCOL_VERSION, type AgentCard } from "@a2a-js/sdk";
import type { TeamStatus } from "../../domain/flights/team-status";
import { QUORUM_VERSION } from "../../domain/version";
import type { SkillDef } from "./skill";

/** The path of the JSON-RPC binding on the hub. */
export const A2A_PATH = "/api/a2a";

/** How a caller picks a skill: `metadata.skill` on the message, saying one of these ids; the default when it names none. */
function choosing(skills: SkillDef[]): string {
  const ids = skills.map((s) => `"${s.id}"`).join(" | ");
  const fallback = skills.find((s) => s.isDefault);
  return `Choose a skill with metadata {"skill": ${ids}} on the message${fallback ? ` (${fallback.id} when none is named)` : ""}.`;
}

export function agentCard(hubUrl: string, team: TeamStatus, skills: SkillDef[]): AgentCard {
  const url = (path: string) => new URL(path, hubUrl).toString();
  return {
    name: "Quorum",
    description:
      "A hub where a team of LLM agents works under hard gates while humans decide: a task board with leases, fences and reviews, and a built-in team " +
      "(orchestrator, coders, reviewer, tester) that takes goals on git repositories. Your message becomes a task on the board, or a goal for the team; " +
      `its state follows the board, and INPUT_REQUIRED means it waits for its approver's review. ${choosing(skills)} ` +
      "Follow-up messages to a task are not taken: file a new task in its context (contextId) instead.",
    supportedInterfaces: [{ url: url(A2A_PATH), protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: "Quorum", url: url("/") },
    version: QUORUM_VERSION,
    documentationUrl: url("/reference/api"),
    iconUrl: url("/icon.svg"),
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      quorumKey: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: { scheme: "Bearer", bearerFormat: "qk_…", description: "An agent's Quorum key (`quorum connect` or `quorum agent add` prints one), on every request." },
        },
      },
    },
    securityRequirements: [{ schemes: { quorumKey: { list: [] } } }],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: skills.map((s) => s.card(team)),
    signatures: [],
  };
}

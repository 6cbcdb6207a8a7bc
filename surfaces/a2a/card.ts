// Quorum's A2A agent card (/.well-known/agent-card.json): who answers, where (the JSON-RPC interface at
// QUORUM_URL's /api/a2a), with what key, and the two skills a caller chooses between — a task on the board, or
// a goal for the built-in team — each saying what it does with a message and how its states read.
import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill } from "@a2a-js/sdk";
import type { TeamStatus } from "../../domain/flights/team-status";
import { QUORUM_VERSION } from "../../domain/version";

/** The path of the JSON-RPC binding on the hub. */
export const A2A_PATH = "/api/a2a";

/** How a caller picks a skill: `metadata.skill` on the message (or on the request). */
export const SKILLS = { board: "board", team: "team" } as const;
export type SkillId = (typeof SKILLS)[keyof typeof SKILLS];

const STATES =
  "States: ready or in progress → WORKING; in review → INPUT_REQUIRED (its approver decides: accept, or reject back to WORKING); accepted → COMPLETED; cancelled → CANCELED.";

const skill = (s: Pick<AgentSkill, "id" | "name" | "description" | "tags" | "examples">): AgentSkill => ({
  ...s,
  inputModes: ["text/plain", "application/json"],
  outputModes: ["text/plain"],
  securityRequirements: [],
});

function teamNow(team: TeamStatus): string {
  if (!team.mode) return "No team worker has started yet, so the team takes no goal now.";
  if (team.mode === "scripted") return "The team runs scripted now (no model is configured): it flies only its demo, and refuses other goals.";
  return `The team now: ${team.roles.join(", ")}, thinking with ${team.mode}.`;
}

export function agentCard(hubUrl: string, team: TeamStatus): AgentCard {
  const url = (path: string) => new URL(path, hubUrl).toString();
  return {
    name: "Quorum",
    description:
      "A hub where a team of LLM agents works under hard gates while humans decide: a task board with leases, fences and reviews, and a built-in team " +
      "(orchestrator, coders, reviewer, tester) that takes goals on git repositories. Your message becomes a task on the board, or a goal for the team; " +
      'its state follows the board, and INPUT_REQUIRED means it waits for its approver\'s review. Choose a skill with metadata {"skill": "board" | "team"} ' +
      "on the message (board when none is named). Follow-up messages to a task are not taken: file a new task in its context (contextId) instead.",
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
    skills: [
      skill({
        id: SKILLS.board,
        name: "A task on Quorum's board",
        description:
          "The default. Your message becomes a task on the board, where an agent claims it under a lease and its approver reviews what it submits. " +
          "The text is the task: its first line the title, the whole text its description. A data part may carry the task's other fields as Quorum's REST API " +
          "names them (POST /api/tasks): acceptanceCriteria (without them nobody can claim it), approverId (who reviews it: you unless you name someone; name " +
          "a human to have a person decide), dependsOn, leaseMinutes. A contextId files it under that task. The submissions on record come back as artifacts. " +
          STATES,
        tags: ["tasks", "board", "review", "human-in-the-loop"],
        examples: ['Port the date parser to Temporal — with a data part {"acceptanceCriteria": "the date tests pass", "approverId": "<a human\'s id>"}'],
      }),
      skill({
        id: SKILLS.team,
        name: "A goal for Quorum's built-in team (a flight)",
        description:
          'Say metadata {"skill": "team"}. The text is the goal; a data part names the repository: {"repo": "<its folder on the team\'s machine>"}, one a human ' +
          "has already given the team, and optionally testCommand and allowance (tokens, at most the default for an agent). The orchestrator plans it into tasks, " +
          "coders work them, the reviewer and the tester check them, and the goal waits for the review of the human who flew that repository. " +
          `${STATES} FAILED: the team handed the goal back to its human (the reason is the status message). ${teamNow(team)}`,
        tags: ["flight", "team", "git", "coding"],
        examples: ['Make the failing date tests pass — with a data part {"repo": "/home/ada/src/app"}'],
      }),
    ],
    signatures: [],
  };
}

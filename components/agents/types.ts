// Shapes of the roster and an agent's page as the browser receives them: server/roster's own types.
export type { AgentStats, RosterRow, AgentRow } from "@/server/roster/roster";
export type { AgentDetail, AgentGateRejection } from "@/server/roster/agent-detail";
export type { IssuedKey } from "@/server/principals/keys";

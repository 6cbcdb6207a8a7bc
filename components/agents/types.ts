// Shapes of the roster and an agent's page as the browser receives them: domain/roster's own types.
export type { AgentStats, RosterRow, AgentRow } from "@/domain/roster/roster";
export type { AgentDetail, AgentGateRejection } from "@/domain/roster/agent-detail";
export type { IssuedKey } from "@/domain/principals/keys";

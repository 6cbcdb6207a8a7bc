// Shapes of the roster and an agent's page as the browser receives them (the stats are server/roster's own type).
import type { AgentStats } from "@/server/roster/roster";
import type { RosterEntry } from "../types";
import type { BudgetView } from "../bill/types";

export type { AgentStats };
export type RosterRow = RosterEntry & Partial<AgentStats>;
export type AgentRow = RosterEntry & AgentStats;

export interface AgentDetail {
  agent: AgentRow;
  budgets: BudgetView[];
  gateRejections: { eventId: number; t: string; room: string; gate: string; reason: string; message: string }[];
}

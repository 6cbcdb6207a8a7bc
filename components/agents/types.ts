// Shapes of the roster and an agent's page as the browser receives them (mirrors of server/roster).
import type { RosterEntry } from "../types";
import type { BudgetView } from "../bill/types";

export interface AgentStats {
  load: number;
  lease: { taskId: string; number: number; title: string; leaseExpiresAt: string | null } | null;
  accepted: number;
  reviewed: number;
  successRate: number | null;
  tokens: number;
  cost: number;
  unpricedTokens: number;
  runs: number;
  allowance: number | null;
  budgetLeft: number | null;
  exhausted: boolean;
}

export type RosterRow = RosterEntry & Partial<AgentStats>;
export type AgentRow = RosterEntry & AgentStats;

export interface AgentDetail {
  agent: AgentRow;
  budgets: BudgetView[];
  gateRejections: { eventId: number; t: string; room: string; gate: string; reason: string; message: string }[];
}

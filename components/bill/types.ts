// Shapes of the bill as the browser receives them (mirrors of server/bill views).
export interface Line {
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  calls: number;
  estimatedCalls: number;
  cost: number;
  unpricedTokens: number;
}

export interface AgentBill extends Line {
  agentId: string;
  agentName: string | null;
  role: string | null;
  runs: number;
  allowance: number | null;
  budgetSpent: number;
  left: number | null;
  exhausted: boolean;
}

export interface BudgetView {
  budgetId: string;
  ownerId: string | null;
  ownerName: string | null;
  parentId: string | null;
  label: string;
  allowance: number | null;
  spent: number;
  left: number | null;
  exhausted: boolean;
  used: number | null;
}

export interface RunBill extends Line {
  runId: string;
  agentId: string | null;
  agentName: string | null;
  taskId: string | null;
  status: "done" | "halted" | "inconclusive" | "out_of_turns" | "stopped" | "running";
  firstEventId: number;
  lastEventId: number;
}

export interface TaskBill extends Line {
  taskId: string;
  number: number | null;
  title: string | null;
  firstEventId: number;
}

export interface Price {
  input: number;
  output: number;
  cachedInput?: number;
}

export interface BillView {
  asOf: { snapshotThrough: number; snapshotEvents: number; tailEvents: number };
  currency: string;
  prices: Record<string, Price>;
  pricesProblem: string | null;
  total: Line;
  agents: AgentBill[];
  models: (Line & { model: string; price: Price | null })[];
  budgets: BudgetView[];
  team: { allowance: number | null; spent: number; left: number | null };
  tasks: { items: TaskBill[]; next?: number };
  runs: { items: RunBill[]; next?: number };
}

export type SeriesWindow = "15m" | "1h" | "6h" | "24h" | "7d";

export interface BillSeries {
  window: SeriesWindow;
  from: string;
  to: string;
  stepSeconds: number;
  agents: { agentId: string; agentName: string | null }[];
  points: { t: string; agents: Record<string, { tokens: number; cost: number }> }[];
  exhaustions: { eventId: number; t: string; agentId: string | null; agentName: string | null; runId: string | null; budgetId: string; allowance: number; budgetSpent: number }[];
  since: { from: string; tokens: number; cost: number; unpricedTokens: number } | null;
}

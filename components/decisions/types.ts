// Shapes of the decision board as the browser receives them (mirrors server/decisions/decision-view.ts).
export type DecisionStatus = "open" | "closed" | "escalated" | "resolved" | "defaulted";

export interface Ballot {
  id: string;
  voterId: string;
  voterName: string;
  voterKind: "human" | "agent" | "system";
  option: string;
  reasoning: string;
  castAt: string;
}

export interface Decision {
  id: string;
  number: number;
  question: string;
  options: string[];
  defaultOption: string;
  consequence: string;
  quorum: number;
  status: DecisionStatus;
  outcome: string | null;
  timeboxAt: string;
  escalationTimeboxSeconds: number;
  escalatedAt: string | null;
  escalationDeadline: string | null;
  envelope: string | null;
  openedBy: string;
  openedByName: string;
  resolvedBy: string | null;
  resolvedByName: string | null;
  decidedAt: string | null;
  createdAt: string;
  tally: { option: string; count: number }[];
  ballots: Ballot[];
}

export interface DecisionPage {
  items: Decision[];
  next?: number;
  total: number;
}

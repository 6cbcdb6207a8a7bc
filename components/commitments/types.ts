// Shapes of the commitment ledger as the browser receives them (mirrors server/commitments/*).
export type CommitmentStatus = "candidate" | "confirmed" | "fulfilled" | "withdrawn";

export interface CommitmentRef {
  id: string;
  number: number;
  what: string;
  status: CommitmentStatus;
}

export interface Commitment {
  id: string;
  number: number;
  ownerId: string;
  ownerName: string;
  ownerKind: "human" | "agent" | "system";
  what: string;
  taskId: string | null;
  dueAt: string | null;
  status: CommitmentStatus;
  reason: string | null;
  overdue: boolean;
  createdAt: string;
  confirmedAt: string | null;
  finishedAt: string | null;
  blockers: CommitmentRef[];
  blocking: CommitmentRef[];
}

export interface GraphNode {
  id: string;
  number: number;
  what: string;
  ownerId: string;
  ownerName: string;
  dueAt: string | null;
  status: CommitmentStatus;
  overdue: boolean;
}

export interface CommitmentGraph {
  nodes: GraphNode[];
  edges: { blockedId: string; blockerId: string }[];
  criticalPath: string[];
}

/** Overdue is judged with the viewer's clock, so it turns red on time without waiting for an event. */
export function isOverdue(c: { status: CommitmentStatus; dueAt: string | null }, now: number): boolean {
  return (c.status === "candidate" || c.status === "confirmed") && c.dueAt !== null && Date.parse(c.dueAt) <= now;
}

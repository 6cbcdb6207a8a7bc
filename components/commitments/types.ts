// Shapes of the commitment ledger as the browser receives them: the server's own view types, so the
// two cannot drift apart (type-only imports; nothing of domain/ reaches the browser bundle).
import type { CommitmentStatus } from "@/domain/commitments/commitment-view";
export type { CommitmentStatus };
export type { CommitmentRef, CommitmentView as Commitment } from "@/domain/commitments/commitment-view";
export type { GraphNode, CommitmentGraph } from "@/domain/commitments/load-graph";

/** Overdue is judged with the viewer's clock, so it turns red on time without waiting for an event. */
export function isOverdue(c: { status: CommitmentStatus; dueAt: string | null }, now: number): boolean {
  return (c.status === "candidate" || c.status === "confirmed") && c.dueAt !== null && Date.parse(c.dueAt) <= now;
}

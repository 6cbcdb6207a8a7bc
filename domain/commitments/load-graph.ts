// The dependency graph as the page draws it: nodes, edges, overdue flags and the critical path.
import { and, eq, inArray, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { commitmentDependencies, commitments, principals, type CommitmentStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import { isOverdue } from "./commitment-view";
import { criticalPath, type PathEdge, type PathNode } from "./critical-path";

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
  edges: PathEdge[];
  /** Ids in work order, blocker first. */
  criticalPath: string[];
}

const blockedSide = alias(commitments, "blocked_side");
const blockerSide = alias(commitments, "blocker_side");

/**
 * The live graph (confirmed commitments and the edges between them) reduced to what the critical
 * path needs: ids, numbers and due dates. Narrow rows keep a pass over 10,000 commitments cheap.
 */
export async function loadCriticalPath(db: Executor): Promise<{ nodes: PathNode[]; edges: PathEdge[]; criticalPath: string[] }> {
  const nodes = await db.select({ id: commitments.id, number: commitments.number, dueAt: commitments.dueAt }).from(commitments).where(eq(commitments.status, "confirmed"));
  const edges = await db
    .select({ blockedId: commitmentDependencies.blockedId, blockerId: commitmentDependencies.blockerId })
    .from(commitmentDependencies)
    .innerJoin(blockedSide, and(eq(blockedSide.id, commitmentDependencies.blockedId), eq(blockedSide.status, "confirmed")))
    .innerJoin(blockerSide, and(eq(blockerSide.id, commitmentDependencies.blockerId), eq(blockerSide.status, "confirmed")));
  return { nodes, edges, criticalPath: criticalPath(nodes, edges) };
}

/**
 * What the Commitments page draws: the live graph, plus finished commitments that still have an
 * edge to a live one (drawn faded), so a fulfilled blocker does not just vanish.
 */
export async function loadCommitmentGraph(db: Executor, now: Date): Promise<CommitmentGraph> {
  const live = await loadCriticalPath(db);
  const liveIds = live.nodes.map((n) => n.id);
  const touching = liveIds.length
    ? await db
        .select({ blockedId: commitmentDependencies.blockedId, blockerId: commitmentDependencies.blockerId })
        .from(commitmentDependencies)
        .where(or(inArray(commitmentDependencies.blockedId, liveIds), inArray(commitmentDependencies.blockerId, liveIds)))
    : [];
  const shownIds = [...new Set([...liveIds, ...touching.flatMap((e) => [e.blockedId, e.blockerId])])];
  const rows = shownIds.length
    ? await db
        .select({ commitment: commitments, ownerName: principals.name })
        .from(commitments)
        .innerJoin(principals, eq(principals.id, commitments.ownerId))
        .where(inArray(commitments.id, shownIds))
    : [];
  const shown = new Set(rows.map((r) => r.commitment.id));
  return {
    nodes: rows.map(({ commitment: c, ownerName }) => ({
      id: c.id,
      number: c.number,
      what: c.what,
      ownerId: c.ownerId,
      ownerName,
      dueAt: c.dueAt?.toISOString() ?? null,
      status: c.status,
      overdue: isOverdue(c, now),
    })),
    edges: touching.filter((e) => shown.has(e.blockedId) && shown.has(e.blockerId)),
    criticalPath: live.criticalPath,
  };
}

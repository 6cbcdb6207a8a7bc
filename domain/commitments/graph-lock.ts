// Edge insertion is serialised on one advisory lock, so a cycle check never races another insertion.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";

/**
 * The lock the database's trigger takes too (db/functions/quorum_lock_commitment_graph.sql holds its key):
 * two edges that together close a cycle are checked one after the other, and the second sees the first.
 * Edges are rare compared to reads, so one global lock costs nothing that matters.
 */
export async function lockGraph(tx: Executor): Promise<void> {
  await tx.execute(sql`select quorum_lock_commitment_graph()`);
}

/**
 * A path of "waits on" edges from `from` to `to` (both included), or null. Reads only the part of
 * the graph reachable from `from` (a recursive UNION visits each node once), then walks it breadth
 * first so the path reported is a shortest one.
 */
export async function findWaitPath(tx: Executor, from: string, to: string): Promise<string[] | null> {
  if (from === to) return [from];
  const edges = await tx.execute<{ blocked_id: string; blocker_id: string }>(sql`
    with recursive reach(node) as (
      select ${from}::uuid
      union
      select d.blocker_id from commitment_dependencies d join reach r on d.blocked_id = r.node
    )
    select d.blocked_id, d.blocker_id from commitment_dependencies d where d.blocked_id in (select node from reach)`);
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.blocked_id, [...(next.get(e.blocked_id) ?? []), e.blocker_id]);
  const parent = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length) {
    const node = queue.shift()!;
    for (const blocker of next.get(node) ?? []) {
      if (parent.has(blocker)) continue;
      parent.set(blocker, node);
      if (blocker === to) {
        const path = [to];
        while (path[0] !== from) path.unshift(parent.get(path[0])!);
        return path;
      }
      queue.push(blocker);
    }
  }
  return null;
}

// The critical path: the longest chain of unfinished confirmed commitments, ties settled by due date.

export interface PathNode {
  id: string;
  number: number;
  dueAt: Date | null;
}

export interface PathEdge {
  blockedId: string;
  blockerId: string;
}

/** Undated work has no deadline to meet: it sorts after every dated commitment. */
const due = (node: PathNode) => node.dueAt?.getTime() ?? Number.POSITIVE_INFINITY;

/**
 * Chains run in the order work must happen, blocker first. A chain is longer when it holds more
 * commitments; between equally long chains the one that ends latest by due date wins (it sets when
 * everything is done, as in the critical-path method), and where chains merge, the blocker due first
 * (then the lower number) is kept, so the answer is deterministic. Edges must form a DAG (the
 * insertion check guarantees it) and touch only the given nodes. O(nodes + edges).
 */
export function criticalPath(nodes: PathNode[], edges: PathEdge[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const blockersOf = new Map<string, string[]>();
  const blockedBy = new Map<string, string[]>();
  const waiting = new Map(nodes.map((n) => [n.id, 0]));
  const push = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const e of edges) {
    if (!byId.has(e.blockedId) || !byId.has(e.blockerId)) continue;
    push(blockersOf, e.blockedId, e.blockerId);
    push(blockedBy, e.blockerId, e.blockedId);
    waiting.set(e.blockedId, waiting.get(e.blockedId)! + 1);
  }
  // Kahn's order: every node after all of its blockers.
  const order = nodes.filter((n) => waiting.get(n.id) === 0).map((n) => n.id);
  for (let i = 0; i < order.length; i++) {
    for (const next of blockedBy.get(order[i]) ?? []) {
      waiting.set(next, waiting.get(next)! - 1);
      if (waiting.get(next) === 0) order.push(next);
    }
  }
  const length = new Map<string, number>();
  const via = new Map<string, string>();
  for (const id of order) {
    let best: PathNode | undefined;
    let bestLength = 0;
    for (const blockerId of blockersOf.get(id) ?? []) {
      const candidate = byId.get(blockerId)!;
      const candidateLength = length.get(blockerId)!;
      const better =
        candidateLength > bestLength ||
        (candidateLength === bestLength && best !== undefined && (due(candidate) < due(best) || (due(candidate) === due(best) && candidate.number < best.number)));
      if (better) {
        best = candidate;
        bestLength = candidateLength;
      }
    }
    length.set(id, bestLength + 1);
    if (best) via.set(id, best.id);
  }
  let end: PathNode | undefined;
  for (const id of order) {
    const node = byId.get(id)!;
    if (
      !end ||
      length.get(id)! > length.get(end.id)! ||
      (length.get(id) === length.get(end.id) && (due(node) > due(end) || (due(node) === due(end) && node.number < end.number)))
    ) {
      end = node;
    }
  }
  if (!end) return [];
  const path = [end.id];
  while (via.has(path[0])) path.unshift(via.get(path[0])!);
  return path;
}

// A small layered layout for the dependency graph: layers by longest path, order by barycentres.

export interface LayoutInput {
  ids: string[];
  /** Work order: `from` (the blocker) must happen before `to` (the blocked). */
  edges: { from: string; to: string }[];
  /** Tie-break for the first ordering inside a layer (smaller first), e.g. the due date. */
  rank: (id: string) => number;
}

export interface LayoutNode {
  id: string;
  layer: number;
  x: number;
  y: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
  /** Points from the blocker's right side to the blocked's left side, through the layers between. */
  points: { x: number; y: number }[];
}

export interface Layout {
  nodes: Map<string, LayoutNode>;
  edges: LayoutEdge[];
  width: number;
  height: number;
}

export const NODE_WIDTH = 172;
export const NODE_HEIGHT = 54;
const GAP_X = 52;
const GAP_Y = 22;
const SWEEPS = 4;

/**
 * Sugiyama in miniature: (1) each node's layer is the longest chain of blockers before it, so
 * work flows left to right; (2) an edge spanning several layers gets a waypoint in each layer
 * between, so it can bend around nodes; (3) a few up-and-down sweeps reorder each layer by the
 * mean position of its neighbours, which removes most crossings. The input must be acyclic.
 */
export function layoutDag({ ids, edges, rank }: LayoutInput): Layout {
  const known = new Set(ids);
  const live = edges.filter((e) => known.has(e.from) && known.has(e.to));
  const preds = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of live) preds.get(e.to)!.push(e.from);
  const layer = new Map<string, number>();
  const depth = (id: string): number => {
    if (layer.has(id)) return layer.get(id)!;
    layer.set(id, 0); // guards against a cycle the server would never let in
    const d = Math.max(-1, ...preds.get(id)!.map(depth)) + 1;
    layer.set(id, d);
    return d;
  };
  ids.forEach(depth);

  // Layers hold real nodes and waypoints ("id~n"); every edge becomes a chain of one-layer segments.
  const layers: string[][] = [];
  const put = (id: string, l: number) => {
    layers[l] ??= [];
    layers[l].push(id);
  };
  for (const id of [...ids].sort((a, b) => rank(a) - rank(b))) put(id, layer.get(id)!);
  const chains: { from: string; to: string; via: string[] }[] = [];
  const up = new Map<string, string[]>();
  const down = new Map<string, string[]>();
  const link = (a: string, b: string) => {
    (down.get(a) ?? down.set(a, []).get(a)!).push(b);
    (up.get(b) ?? up.set(b, []).get(b)!).push(a);
  };
  live.forEach((e, i) => {
    const via: string[] = [];
    for (let l = layer.get(e.from)! + 1; l < layer.get(e.to)!; l++) {
      const waypoint = `${e.from}~${i}~${l}`;
      put(waypoint, l);
      via.push(waypoint);
    }
    const chain = [e.from, ...via, e.to];
    for (let k = 1; k < chain.length; k++) link(chain[k - 1], chain[k]);
    chains.push({ from: e.from, to: e.to, via });
  });

  const index = new Map<string, number>();
  const reindex = () => {
    for (const row of layers) {
      if (!row) continue;
      for (const [i, id] of row.entries()) index.set(id, i);
    }
  };
  reindex();
  const barycentre = (id: string, neighbours: Map<string, string[]>) => {
    const ns = neighbours.get(id) ?? [];
    return ns.length ? ns.reduce((sum, n) => sum + index.get(n)!, 0) / ns.length : index.get(id)!;
  };
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const forward = sweep % 2 === 0;
    const order = forward ? layers.keys() : [...layers.keys()].reverse();
    for (const l of order) {
      const row = layers[l];
      if (!row) continue;
      const score = new Map(row.map((id) => [id, barycentre(id, forward ? up : down)]));
      row.sort((a, b) => score.get(a)! - score.get(b)!);
      for (const [i, id] of row.entries()) index.set(id, i);
    }
  }

  const tallest = Math.max(1, ...layers.map((row) => row?.length ?? 0));
  const position = new Map<string, { x: number; y: number }>();
  for (const [l, row] of layers.entries()) {
    if (!row) continue;
    // Centre short layers against the tallest one.
    const offset = ((tallest - row.length) * (NODE_HEIGHT + GAP_Y)) / 2;
    for (const [i, id] of row.entries()) position.set(id, { x: l * (NODE_WIDTH + GAP_X), y: offset + i * (NODE_HEIGHT + GAP_Y) });
  }
  const nodes = new Map(ids.map((id) => [id, { id, layer: layer.get(id)!, ...position.get(id)! }]));
  const middle = (id: string, side: "in" | "out" | "through") => {
    const p = position.get(id)!;
    const x = side === "out" ? p.x + NODE_WIDTH : side === "in" ? p.x : p.x + NODE_WIDTH / 2;
    return { x, y: p.y + NODE_HEIGHT / 2 };
  };
  return {
    nodes,
    edges: chains.map((c) => ({ from: c.from, to: c.to, points: [middle(c.from, "out"), ...c.via.map((w) => middle(w, "through")), middle(c.to, "in")] })),
    width: Math.max(NODE_WIDTH, layers.length * (NODE_WIDTH + GAP_X) - GAP_X),
    height: tallest * (NODE_HEIGHT + GAP_Y) - GAP_Y,
  };
}

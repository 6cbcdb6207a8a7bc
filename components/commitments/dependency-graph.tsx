"use client";
// The dependency graph as a picture: a layered DAG in SVG, overdue nodes red, the critical path thicker.
import { useMemo } from "react";
import { layoutDag, NODE_HEIGHT, NODE_WIDTH } from "./dag-layout";
import { isOverdue, type CommitmentGraph, type GraphNode } from "./types";

/** Beyond this, an SVG stops being readable (and cheap): the critical path and its neighbours come first. */
const MAX_NODES = 300;

function pathOf(points: { x: number; y: number }[]): string {
  let d = `M ${points[0].x} ${points[0].y}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const dx = (b.x - a.x) / 2;
    d += ` C ${a.x + dx} ${a.y}, ${b.x - dx} ${b.y}, ${b.x} ${b.y}`;
  }
  return d;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function dueLabel(node: GraphNode): string {
  if (!node.dueAt) return "no due date";
  return `due ${new Date(node.dueAt).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })}`;
}

function choose(graph: CommitmentGraph): { nodes: GraphNode[]; omitted: number } {
  if (graph.nodes.length <= MAX_NODES) return { nodes: graph.nodes, omitted: 0 };
  const linked = new Set(graph.edges.flatMap((e) => [e.blockedId, e.blockerId]));
  const priority = (n: GraphNode) => (graph.criticalPath.includes(n.id) ? 0 : linked.has(n.id) ? 1 : 2);
  const nodes = [...graph.nodes].sort((a, b) => priority(a) - priority(b)).slice(0, MAX_NODES);
  return { nodes, omitted: graph.nodes.length - nodes.length };
}

export function DependencyGraph({ graph, now }: { graph: CommitmentGraph; now: number }) {
  const { nodes, omitted } = choose(graph);
  const layout = useMemo(() => {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    return layoutDag({
      ids: nodes.map((n) => n.id),
      edges: graph.edges.map((e) => ({ from: e.blockerId, to: e.blockedId })),
      rank: (id) => (byId.get(id)?.dueAt ? Date.parse(byId.get(id)!.dueAt!) : Number.MAX_SAFE_INTEGER),
    });
  }, [nodes, graph.edges]);
  const critical = new Set(graph.criticalPath);
  const criticalEdges = new Set(graph.criticalPath.slice(1).map((id, i) => `${graph.criticalPath[i]}>${id}`));
  if (nodes.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-6 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
        The graph is empty. A commitment joins it when its owner confirms it; an edge appears when one commitment waits on another.
      </p>
    );
  }
  const pad = 12;
  return (
    <figure>
      <div className="overflow-auto rounded-lg border border-neutral-200 bg-neutral-50 dark:border-neutral-800 dark:bg-neutral-900">
        <svg
          role="img"
          aria-label={`Dependency graph: ${nodes.length} commitments, ${graph.edges.length} dependencies, critical path of ${graph.criticalPath.length}`}
          width={layout.width + pad * 2}
          height={layout.height + pad * 2}
          viewBox={`${-pad} ${-pad} ${layout.width + pad * 2} ${layout.height + pad * 2}`}
          className="block text-neutral-800 dark:text-neutral-100"
          data-testid="dependency-graph"
        >
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" className="fill-neutral-400" />
            </marker>
            <marker id="arrow-critical" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="12" markerHeight="12" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" className="fill-accent-600" />
            </marker>
          </defs>
          {layout.edges.map((edge) => {
            const onPath = criticalEdges.has(`${edge.from}>${edge.to}`);
            return (
              <path
                key={`${edge.from}>${edge.to}`}
                data-testid="graph-edge"
                d={pathOf(edge.points)}
                fill="none"
                data-critical={onPath || undefined}
                className={onPath ? "stroke-accent-600" : "stroke-neutral-400 dark:stroke-neutral-600"}
                strokeWidth={onPath ? 4 : 1.5}
                markerEnd={onPath ? "url(#arrow-critical)" : "url(#arrow)"}
              />
            );
          })}
          {nodes.map((node) => {
            const p = layout.nodes.get(node.id)!;
            const overdue = isOverdue(node, now);
            const finished = node.status === "fulfilled" || node.status === "withdrawn";
            const onPath = critical.has(node.id);
            const box = overdue
              ? "fill-red-50 stroke-red-600 dark:fill-red-950"
              : finished
                ? "fill-neutral-100 stroke-neutral-300 dark:fill-neutral-900 dark:stroke-neutral-700"
                : onPath
                  ? "fill-white stroke-accent-600 dark:fill-neutral-950"
                  : "fill-white stroke-neutral-300 dark:fill-neutral-950 dark:stroke-neutral-700";
            return (
              <g
                key={node.id}
                transform={`translate(${p.x} ${p.y})`}
                data-testid="graph-node"
                data-number={node.number}
                data-overdue={overdue || undefined}
                data-critical={onPath || undefined}
                opacity={finished ? 0.6 : 1}
              >
                <title>{`C-${node.number} ${node.what}\n${node.ownerName} · ${node.status} · ${dueLabel(node)}${overdue ? " · OVERDUE" : ""}${onPath ? " · critical path" : ""}`}</title>
                <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx={6} className={box} strokeWidth={onPath || overdue ? 2.5 : 1} strokeDasharray={finished ? "4 3" : undefined} />
                <text x={8} y={17} className="fill-current text-[11px] font-semibold">
                  <tspan className="font-mono">C-{node.number}</tspan> {clip(node.what, 20)}
                </text>
                <text x={8} y={32} className="fill-neutral-500 text-[10px] dark:fill-neutral-400">
                  {clip(node.ownerName, 16)} · {node.status}
                </text>
                <text x={8} y={46} className={`text-[10px] ${overdue ? "fill-red-700 font-semibold dark:fill-red-400" : "fill-neutral-500 dark:fill-neutral-400"}`}>
                  {overdue ? `overdue · ${dueLabel(node)}` : dueLabel(node)}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-neutral-600 dark:text-neutral-300">
        <span>Work flows left to right: an arrow points from a blocker to what waits on it.</span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-1 w-6 rounded bg-accent-600" /> critical path
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-3 w-4 rounded-sm border-2 border-red-600 bg-red-50" /> overdue
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-3 w-4 rounded-sm border border-dashed border-neutral-400" /> finished
        </span>
        {omitted > 0 && <span>{omitted} more commitments are not drawn (the critical path and linked work come first); the ledger lists them all.</span>}
      </figcaption>
    </figure>
  );
}

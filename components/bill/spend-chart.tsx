// Spend over time as a stacked area chart in SVG, one area per agent, BudgetExhausted as red markers.
// The drawing is as wide as its box in CSS pixels, so its labels keep their size on a phone instead of
// shrinking with a fixed viewBox (at 390 px an 800-unit chart drew 11 px labels at 5 px).
import { useEffect, useRef, useState } from "react";
import { formatMoney, formatTokens } from "./format";
import { usePrincipalColours } from "../principal-colour";
import type { BillSeries } from "./types";

const M = { left: 56, right: 12, top: 14, bottom: 26 };
/** Below this width the chart is drawn shorter, and its empty-window sentence breaks in two. */
const NARROW = 520;

/** The width of an element in CSS pixels, following it as it resizes; `initial` until it is measured. */
function useWidth<T extends Element>(initial: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** A round number (1, 1.5, 2, 2.5, 3, 4, 5 or 8 times a power of ten), at least `n`. */
function niceCeil(n: number): number {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return [1, 1.5, 2, 2.5, 3, 4, 5, 8, 10].map((m) => m * p).find((v) => v >= n)!;
}

const TICKS = 4;

function timeLabel(iso: string, long: boolean): string {
  const d = new Date(iso);
  return long ? d.toLocaleDateString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" }) : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

export function SpendChart({ series, unit, currency }: { series: BillSeries; unit: "tokens" | "cost"; currency: string }) {
  // The same colour as each agent's avatar.
  const colourOf = usePrincipalColours();
  const [box, boxWidth] = useWidth<HTMLElement>(800);
  const W = Math.max(280, boxWidth);
  const narrow = W < NARROW;
  const H = narrow ? 200 : 240;
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const value = (p: BillSeries["points"][number], agentId: string) => p.agents[agentId]?.[unit === "tokens" ? "tokens" : "cost"] ?? 0;
  const fmt = (v: number) => (unit === "tokens" ? formatTokens(Math.round(v)) : formatMoney(v, currency));
  const n = series.points.length;
  const stacks = series.points.map((p) => {
    let sum = 0;
    return series.agents.map((a) => (sum += value(p, a.agentId)));
  });
  const step = niceCeil(Math.max(0, ...stacks.map((s) => s.at(-1) ?? 0)) / TICKS);
  const top = step * TICKS;
  // Each point is one step of time: drawn flat across its step, so an area's height is that step's spend.
  const x = (i: number) => M.left + (i / n) * plotW;
  const y = (v: number) => M.top + plotH - (v / top) * plotH;
  const from = new Date(series.from).getTime();
  const span = new Date(series.to).getTime() - from;
  const long = series.window === "24h" || series.window === "7d";
  const empty = stacks.every((s) => (s.at(-1) ?? 0) === 0);
  const totals = series.agents.map((a) => series.points.reduce((sum, p) => sum + value(p, a.agentId), 0));
  return (
    <figure className="space-y-2" ref={box}>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} className="block max-w-full" role="img" aria-labelledby="spend-chart-title" data-testid="spend-chart">
        <title id="spend-chart-title">
          {`Spend per agent from ${timeLabel(series.from, long)} to ${timeLabel(series.to, long)}, ${unit === "tokens" ? "in tokens" : `in ${currency}`}`}
        </title>
        {Array.from({ length: TICKS + 1 }, (_, k) => k * step).map((v) => (
          <g key={v}>
            <line x1={M.left} x2={W - M.right} y1={y(v)} y2={y(v)} className="stroke-neutral-200 dark:stroke-neutral-800" strokeWidth={1} />
            <text x={M.left - 6} y={y(v) + 4} textAnchor="end" className="fill-neutral-500 text-[11px] tabular-nums">
              {fmt(v)}
            </text>
          </g>
        ))}
        {series.agents.map((a, k) => {
          const upper = stacks.flatMap((s, i) => [`${x(i)},${y(s[k])}`, `${x(i + 1)},${y(s[k])}`]);
          const lower = stacks.flatMap((s, i) => [`${x(i)},${y(k === 0 ? 0 : s[k - 1])}`, `${x(i + 1)},${y(k === 0 ? 0 : s[k - 1])}`]).reverse();
          const colour = colourOf(a.agentId);
          return (
            <path key={a.agentId} d={`M${upper.join("L")}L${lower.join("L")}Z`} className={`${colour.fill} ${colour.stroke}`} strokeWidth={1} data-agent={a.agentName ?? a.agentId}>
              <title>{`${a.agentName ?? "unknown agent"}: ${fmt(totals[k])} in this window`}</title>
            </path>
          );
        })}
        {series.exhaustions.map((e) => {
          const at = M.left + ((new Date(e.t).getTime() - from) / span) * plotW;
          return (
            <g key={e.eventId} data-testid="exhaustion-marker">
              <line x1={at} x2={at} y1={M.top} y2={M.top + plotH} className="stroke-red-600" strokeWidth={2} strokeDasharray="4 3" />
              <circle cx={at} cy={M.top + 4} r={5} className="fill-red-600" />
              <title>{`${e.agentName ?? "an agent"} ran out of budget at ${new Date(e.t).toLocaleTimeString()} (${formatTokens(e.budgetSpent)} of ${formatTokens(e.allowance)})`}</title>
            </g>
          );
        })}
        {[0, 0.5, 1].map((f) => (
          <text key={f} x={M.left + f * plotW} y={H - 8} textAnchor={f === 0 ? "start" : f === 1 ? "end" : "middle"} className="fill-neutral-500 text-[11px]">
            {timeLabel(new Date(from + f * span).toISOString(), long)}
          </text>
        ))}
        {empty && (
          <text x={M.left + plotW / 2} y={M.top + plotH / 2} textAnchor="middle" className="fill-neutral-500 text-[13px]">
            {narrow ? "No spend in this window yet." : "No spend in this window — it appears here as agents call their models."}
          </text>
        )}
      </svg>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-neutral-600 dark:text-neutral-300">
        {series.agents.map((a, k) => (
          <span key={a.agentId} className="flex items-center gap-1.5">
            <span className={`h-2.5 w-2.5 rounded-sm ${colourOf(a.agentId).swatch}`} aria-hidden />
            {a.agentName ?? "unknown"} <span className="tabular-nums text-neutral-500">{fmt(totals[k])}</span>
          </span>
        ))}
        {series.exhaustions.length > 0 && (
          <span className="flex items-center gap-1.5 text-red-700 dark:text-red-400">
            <span className="h-2.5 w-2.5 rounded-full bg-red-600" aria-hidden /> budget exhausted
          </span>
        )}
      </figcaption>
    </figure>
  );
}

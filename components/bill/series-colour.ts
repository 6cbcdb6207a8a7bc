// One colour per agent, the same hue its avatar has (same hash, same order), for the chart's areas.
const SERIES = [
  { fill: "fill-rose-500/70", stroke: "stroke-rose-600", swatch: "bg-rose-500" },
  { fill: "fill-orange-500/70", stroke: "stroke-orange-600", swatch: "bg-orange-500" },
  { fill: "fill-amber-600/70", stroke: "stroke-amber-700", swatch: "bg-amber-600" },
  { fill: "fill-lime-600/70", stroke: "stroke-lime-700", swatch: "bg-lime-600" },
  { fill: "fill-emerald-600/70", stroke: "stroke-emerald-700", swatch: "bg-emerald-600" },
  { fill: "fill-teal-600/70", stroke: "stroke-teal-700", swatch: "bg-teal-600" },
  { fill: "fill-sky-600/70", stroke: "stroke-sky-700", swatch: "bg-sky-600" },
  { fill: "fill-indigo-500/70", stroke: "stroke-indigo-600", swatch: "bg-indigo-500" },
  { fill: "fill-violet-500/70", stroke: "stroke-violet-600", swatch: "bg-violet-500" },
  { fill: "fill-fuchsia-600/70", stroke: "stroke-fuchsia-700", swatch: "bg-fuchsia-600" },
];

export function seriesColour(id: string) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return SERIES[hash % SERIES.length];
}

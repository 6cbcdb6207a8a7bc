// One colour per agent of a chart, by its place in the chart (stable: agents are listed by id), so no two areas share one.
// Neighbours differ in hue, so that stacked areas stay apart.
const SERIES = [
  { fill: "fill-sky-600/70", stroke: "stroke-sky-700", swatch: "bg-sky-600" },
  { fill: "fill-orange-500/70", stroke: "stroke-orange-600", swatch: "bg-orange-500" },
  { fill: "fill-emerald-600/70", stroke: "stroke-emerald-700", swatch: "bg-emerald-600" },
  { fill: "fill-fuchsia-600/70", stroke: "stroke-fuchsia-700", swatch: "bg-fuchsia-600" },
  { fill: "fill-lime-600/70", stroke: "stroke-lime-700", swatch: "bg-lime-600" },
  { fill: "fill-indigo-500/70", stroke: "stroke-indigo-600", swatch: "bg-indigo-500" },
  { fill: "fill-amber-600/70", stroke: "stroke-amber-700", swatch: "bg-amber-600" },
  { fill: "fill-teal-600/70", stroke: "stroke-teal-700", swatch: "bg-teal-600" },
  { fill: "fill-rose-500/70", stroke: "stroke-rose-600", swatch: "bg-rose-500" },
  { fill: "fill-violet-500/70", stroke: "stroke-violet-600", swatch: "bg-violet-500" },
];

export function seriesColour(index: number) {
  return SERIES[index % SERIES.length];
}

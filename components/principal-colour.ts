"use client";
// One colour per principal, everywhere it appears (avatars, the Bill's chart), for good: the order
// principals were created in (the roster's `order`) picks a slot of twelve, so the first dozen are all
// distinct, and a newcomer, coming last, never moves anyone else's colour.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "./api";
import { queryKeys } from "./query-keys";
import type { Page, RosterRow } from "./types";

export interface PrincipalColour {
  /** Behind white initials (contrast ≥ 4.5:1). */
  avatar: string;
  /** A chart area and its edge, and the legend's swatch. */
  fill: string;
  stroke: string;
  swatch: string;
}

// Neighbouring slots differ in hue. Full class names: Tailwind finds them in this file.
export const PALETTE: PrincipalColour[] = [
  { avatar: "bg-sky-700", fill: "fill-sky-600/70", stroke: "stroke-sky-700", swatch: "bg-sky-600" },
  { avatar: "bg-orange-700", fill: "fill-orange-500/70", stroke: "stroke-orange-600", swatch: "bg-orange-500" },
  { avatar: "bg-emerald-700", fill: "fill-emerald-600/70", stroke: "stroke-emerald-700", swatch: "bg-emerald-600" },
  { avatar: "bg-fuchsia-700", fill: "fill-fuchsia-600/70", stroke: "stroke-fuchsia-700", swatch: "bg-fuchsia-600" },
  { avatar: "bg-lime-800", fill: "fill-lime-600/70", stroke: "stroke-lime-700", swatch: "bg-lime-600" },
  { avatar: "bg-indigo-600", fill: "fill-indigo-500/70", stroke: "stroke-indigo-600", swatch: "bg-indigo-500" },
  { avatar: "bg-amber-800", fill: "fill-amber-600/70", stroke: "stroke-amber-700", swatch: "bg-amber-600" },
  { avatar: "bg-teal-700", fill: "fill-teal-600/70", stroke: "stroke-teal-700", swatch: "bg-teal-600" },
  { avatar: "bg-rose-700", fill: "fill-rose-500/70", stroke: "stroke-rose-600", swatch: "bg-rose-500" },
  { avatar: "bg-slate-600", fill: "fill-slate-500/70", stroke: "stroke-slate-600", swatch: "bg-slate-500" },
  { avatar: "bg-cyan-800", fill: "fill-cyan-600/70", stroke: "stroke-cyan-700", swatch: "bg-cyan-600" },
  { avatar: "bg-pink-700", fill: "fill-pink-500/70", stroke: "stroke-pink-600", swatch: "bg-pink-500" },
];

/** The colour of a principal by its place in the order principals were created. */
export const colourAt = (order: number): PrincipalColour => PALETTE[order % PALETTE.length];

/** A principal the page does not know yet (the list is still loading): grey, rather than a colour it then loses. */
export const UNKNOWN_COLOUR: PrincipalColour = { avatar: "bg-neutral-500", fill: "fill-neutral-400/70", stroke: "stroke-neutral-500", swatch: "bg-neutral-400" };

/** Everyone's colour, from the principals the page knows (the shared, live-refreshed list). */
export function usePrincipalColours(): (id: string) => PrincipalColour {
  const principals = useQuery({ queryKey: queryKeys.principals(), queryFn: () => apiGet<Page<RosterRow>>("/api/agents") });
  const orders = new Map((principals.data?.items ?? []).map((p) => [p.id, p.order]));
  return (id) => {
    const order = orders.get(id);
    return order === undefined ? UNKNOWN_COLOUR : colourAt(order);
  };
}

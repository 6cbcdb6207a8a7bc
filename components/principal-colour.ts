"use client";
// One colour per principal, everywhere it appears (avatars, the Bill's chart): its id's hash picks a slot
// of twelve, and principals that would share one move to the next free slot, so the first dozen are all
// distinct. Slots are settled in hash order, so the list's order does not matter.
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
  { avatar: "bg-violet-600", fill: "fill-violet-500/70", stroke: "stroke-violet-600", swatch: "bg-violet-500" },
  { avatar: "bg-cyan-800", fill: "fill-cyan-600/70", stroke: "stroke-cyan-700", swatch: "bg-cyan-600" },
  { avatar: "bg-pink-700", fill: "fill-pink-500/70", stroke: "stroke-pink-600", swatch: "bg-pink-500" },
];

export function hashOf(id: string): number {
  let hash = 2166136261;
  for (const char of id) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** The slot of each id: its hash's, or the next free one (all distinct while there are at most twelve). */
export function assignSlots(ids: readonly string[]): Map<string, number> {
  const slots = new Map<string, number>();
  const taken = new Set<number>();
  const ordered = [...new Set(ids)].sort((a, b) => hashOf(a) - hashOf(b) || (a < b ? -1 : 1));
  for (const id of ordered) {
    let slot = hashOf(id) % PALETTE.length;
    for (let tries = 0; taken.has(slot) && tries < PALETTE.length; tries++) slot = (slot + 1) % PALETTE.length;
    taken.add(slot);
    slots.set(id, slot);
  }
  return slots;
}

/** Everyone's colour, from the principals the page knows (the shared, live-refreshed list). */
export function usePrincipalColours(): (id: string) => PrincipalColour {
  const principals = useQuery({ queryKey: queryKeys.principals(), queryFn: () => apiGet<Page<RosterRow>>("/api/agents") });
  const slots = assignSlots((principals.data?.items ?? []).map((p) => p.id));
  return (id) => PALETTE[slots.get(id) ?? hashOf(id) % PALETTE.length];
}

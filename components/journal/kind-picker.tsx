"use client";
// The journal's kind filter: a searchable multi-select (the journal has dozens of kinds; a plain select of
// them all is a wall), in the rows' words ("Task claimed"). The choice is a comma-separated list of the kinds'
// names in the URL (`kind=TaskClaimed,TaskSubmitted`).
import { useId, useState } from "react";
import type { KindChoice } from "./journal-params";
import { useFocusWhen } from "../use-focus-when";
import { usePopover } from "../use-popover";

export function KindPicker({ kinds, value, onChange }: { kinds: readonly KindChoice[]; value: string; onChange: (kinds: string) => void }) {
  const chosen = value ? value.split(",").filter(Boolean) : [];
  const { open, setOpen, box } = usePopover();
  const [find, setFind] = useState("");
  const panelId = useId();
  // Opened to type into: the search has the focus.
  const findInput = useFocusWhen<HTMLInputElement>(open);
  const wanted = find.trim().toLowerCase();
  const shown = kinds.filter((k) => k.words.toLowerCase().includes(wanted) || k.kind.toLowerCase().includes(wanted.replaceAll(" ", "")));
  const wordsOf = (kind: string) => kinds.find((k) => k.kind === kind)?.words ?? kind;
  const toggle = (kind: string) => onChange((chosen.includes(kind) ? chosen.filter((k) => k !== kind) : [...chosen, kind]).join(","));
  const label = chosen.length === 0 ? "all kinds" : chosen.length === 1 ? wordsOf(chosen[0]) : `${chosen.length} kinds`;
  return (
    <div ref={box} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="flex items-center gap-1.5 rounded border border-neutral-300 bg-white px-2 py-1 text-xs dark:border-neutral-700 dark:bg-neutral-900"
        data-testid="kind-picker"
      >
        <span className="text-neutral-600 dark:text-neutral-300">Kind</span>
        <span className="max-w-40 truncate font-medium">{label}</span>
      </button>
      {open && (
        <div
          id={panelId}
          className="absolute top-full left-0 z-30 mt-1 w-72 max-w-[calc(100vw-1.5rem)] rounded-lg border border-neutral-200 bg-white p-2 shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
        >
          <label className="block text-xs">
            <span className="sr-only">Find a kind</span>
            <input
              ref={findInput}
              value={find}
              onChange={(e) => setFind(e.target.value)}
              placeholder="Find a kind…"
              className="w-full rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-950"
            />
          </label>
          <fieldset className="mt-2 max-h-64 overflow-y-auto">
            <legend className="sr-only">Kinds to show</legend>
            {shown.length === 0 && <p className="px-1 py-2 text-xs text-neutral-600 dark:text-neutral-300">No kind matches “{find}”.</p>}
            {shown.map(({ kind, words, system }) => (
              <label key={kind} title={kind} className="flex items-center gap-2 rounded px-1 py-0.5 text-xs hover:bg-neutral-100 dark:hover:bg-neutral-800">
                <input type="checkbox" checked={chosen.includes(kind)} onChange={() => toggle(kind)} />
                {words}
                {system && <span className="text-neutral-500 dark:text-neutral-400">(system)</span>}
              </label>
            ))}
          </fieldset>
          {chosen.length > 0 && (
            <button type="button" onClick={() => onChange("")} className="mt-1 text-xs text-accent-700 hover:underline dark:text-accent-500">
              Show all kinds
            </button>
          )}
        </div>
      )}
    </div>
  );
}

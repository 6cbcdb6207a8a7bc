"use client";
// Who is here: humans and agents, present first, with their roles.
import { Avatar } from "../avatar";
import type { RosterEntry } from "../types";

export function PresencePanel({ people }: { people: RosterEntry[] }) {
  const sorted = [...people].sort((a, b) => Number(b.present) - Number(a.present) || a.name.localeCompare(b.name));
  return (
    <section aria-label="Who is here" className="p-4">
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase dark:text-neutral-400">People and agents</h2>
      {sorted.length === 0 && <p className="text-sm text-neutral-500">Nobody yet.</p>}
      <ul className="space-y-2" data-testid="presence">
        {sorted.map((person) => (
          <li key={person.id} className="flex items-center gap-2 text-sm">
            <Avatar id={person.id} name={person.name} kind={person.kind} size="sm" />
            <span className="min-w-0 flex-1 truncate">
              {person.name}
              <span className="ml-1 text-xs text-neutral-500 dark:text-neutral-400">{person.role ?? person.kind}</span>
            </span>
            <span className={`text-xs ${person.present ? "text-green-700 dark:text-green-400" : "text-neutral-400"}`}>
              {person.present ? "● present" : "○ away"}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

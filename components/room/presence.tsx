"use client";
// Who is here: humans and agents, present first, with roles, and a "focusing" pill on agents at work.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { usePresence } from "../use-presence";
import type { Page, PresenceEntry } from "../types";

export function useRoomPresence(room: string) {
  return useQuery({
    queryKey: queryKeys.roomPresence(room),
    queryFn: () => apiGet<Page<PresenceEntry>>(`/api/rooms/${encodeURIComponent(room)}/presence`),
  });
}

function FocusPill({ focusing }: { focusing: NonNullable<PresenceEntry["focusing"]> }) {
  const task = focusing.taskNumber !== null ? `#${focusing.taskNumber}${focusing.taskTitle ? ` ${focusing.taskTitle}` : ""}` : "a task";
  const held = `${focusing.queued} ${focusing.queued === 1 ? "message" : "messages"} held so far${focusing.dropped ? `, ${focusing.dropped} more dropped` : ""}`;
  return (
    <span
      data-testid="focusing"
      title={`Busy with ${task}: the room's messages are held and reach them as one digest when they finish (${held}); an @mention reaches them at once`}
      className="rounded-full bg-blue-100 px-1.5 py-0.5 text-[10px] font-medium text-blue-900 dark:bg-blue-900/50 dark:text-blue-100"
    >
      busy with {focusing.taskNumber !== null ? `#${focusing.taskNumber}` : "a task"}
      {focusing.queued > 0 && ` · ${focusing.queued} held for later`}
    </span>
  );
}

export function PresencePanel({ room }: { room: string }) {
  const query = useRoomPresence(room);
  const isPresent = usePresence(query.data?.items, query.dataUpdatedAt, query.refetch);
  const people = (query.data?.items ?? []).map((p) => ({ ...p, present: isPresent(p) }));
  const sorted = people.sort((a, b) => Number(b.present) - Number(a.present) || a.name.localeCompare(b.name));
  return (
    <section aria-label="Who is here" className="p-4">
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase dark:text-neutral-400">People and agents</h2>
      {query.isPending && (
        <div className="space-y-2" aria-busy>
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-6 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
          ))}
        </div>
      )}
      {query.isError && <p className="text-sm text-red-600">Could not load who is here: {query.error.message}</p>}
      {query.data && sorted.length === 0 && <p className="text-sm text-neutral-500">Nobody yet.</p>}
      <ul className="space-y-2" data-testid="presence">
        {sorted.map((person) => (
          <li key={person.id} data-testid="presence-entry" data-name={person.name} className="flex items-start gap-2 text-sm">
            <Avatar id={person.id} name={person.name} kind={person.kind} size="sm" />
            <div className="min-w-0 flex-1">
              <div className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate">{person.name}</span>
                <span className={`text-xs ${person.present ? "text-green-700 dark:text-green-400" : "text-neutral-500 dark:text-neutral-400"}`}>
                  {person.present ? "● present" : "○ away"}
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-1 text-xs text-neutral-500 dark:text-neutral-400">
                <span>{person.role ?? person.kind}</span>
                {person.focusing && <FocusPill focusing={person.focusing} />}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

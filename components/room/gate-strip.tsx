"use client";
// The live strip of the room's gate rejections: which agent was held, by which gate, why, and when.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { RelativeTime } from "../time";
import type { GateRejection, Page } from "../types";
import { useMessages } from "./message-list";

const GATE_LABEL: Record<GateRejection["gate"], string> = {
  rate: "rate floor",
  duplicate: "duplicate",
  freshness: "stale",
  lapping: "lapping",
  two_tier: "two-tier cap",
};

const GATE_STYLE: Record<GateRejection["gate"], string> = {
  rate: "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
  duplicate: "bg-neutral-200 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200",
  freshness: "bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100",
  lapping: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
  two_tier: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
};

export function useGateRejections(room: string) {
  return useQuery({
    queryKey: queryKeys.gates(room),
    queryFn: () => apiGet<Page<GateRejection>>(`/api/rooms/${encodeURIComponent(room)}/gates?limit=20`),
  });
}

function num(figures: Record<string, unknown>, key: string): number | null {
  const value = figures[key];
  return typeof value === "number" ? value : null;
}

function plural(n: number | null, one: string, many: string): string {
  return n === null ? many : `${n} ${n === 1 ? one : many}`;
}

/** The refusal as a sentence about the agent; the server's own words (with the API's next step) go in the tooltip. */
export function gateSentence(r: GateRejection): string {
  const f = r.figures;
  switch (r.gate) {
    case "freshness":
      return `${r.senderName} was held: it had not read ${plural(num(f, "unreadCount"), "new message", "new messages")}; it will read and retry.`;
    case "rate":
      return `${r.senderName} was held: it posted ${plural(num(f, "sentInWindow"), "message", "messages")} in a minute, over the limit of ${num(f, "limit") ?? "the room"}; it will wait and retry.`;
    case "duplicate":
      return `${r.senderName} was held: it repeated a message it had already posted here.`;
    case "lapping":
      return `${r.senderName} was held: it posted ${plural(num(f, "sent"), "time", "times")} since a human last spoke, with too few others talking; it waits for another voice.`;
    case "two_tier":
      return `${r.senderName} was held: it reached the cap of ${num(f, "cap") ?? "a few"} posts while a human is here; it waits for a reply.`;
  }
}

interface Entry {
  key: number;
  latest: GateRejection;
  count: number;
}

/**
 * Rejections of the same agent by the same gate in a row collapse into one entry (with a count), and an
 * agent's entries expire once it has posted in the room since: the hold is over.
 */
export function stripEntries(items: GateRejection[], lastPostAt: Map<string, number>): Entry[] {
  const entries: Entry[] = [];
  for (const r of items) {
    const posted = lastPostAt.get(r.senderId);
    if (posted !== undefined && posted > Date.parse(r.t)) continue;
    const previous = entries[entries.length - 1];
    if (previous && previous.latest.senderId === r.senderId && previous.latest.gate === r.gate) previous.count++;
    else entries.push({ key: r.id, latest: r, count: 1 });
  }
  return entries;
}

export function GateStrip({ room }: { room: string }) {
  const query = useGateRejections(room);
  const messages = useMessages(room);
  const lastPostAt = new Map<string, number>();
  for (const page of messages.data?.pages ?? []) {
    for (const m of page.items) lastPostAt.set(m.senderId, Math.max(lastPostAt.get(m.senderId) ?? 0, Date.parse(m.createdAt)));
  }
  const entries = stripEntries(query.data?.items ?? [], lastPostAt);
  return (
    <section aria-label="Gate rejections" className="border-t border-neutral-200 p-4 dark:border-neutral-800">
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">Held back by the gates</h2>
      {query.isPending && (
        <div className="space-y-2" aria-busy>
          {[0, 1].map((i) => (
            <div key={i} className="h-12 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
          ))}
        </div>
      )}
      {query.data && entries.length === 0 && (
        <p className="text-sm text-neutral-600 dark:text-neutral-300">
          Nobody is held back in #{room}. When an agent posts too fast, repeats itself, speaks over unread messages or laps the room, it shows here until it posts again.
        </p>
      )}
      <ol className="space-y-2" data-testid="gate-strip" aria-live="polite">
        {entries.map(({ key, latest: r, count }) => (
          <li key={key} data-testid="gate-rejection" data-gate={r.gate} className="rounded border border-neutral-200 p-2 text-xs dark:border-neutral-800">
            <div className="flex items-center gap-2">
              <Avatar id={r.senderId} name={r.senderName} kind="agent" size="sm" />
              <span className="min-w-0 flex-1 truncate font-medium">{r.senderName}</span>
              {count > 1 && (
                <span className="text-neutral-600 tabular-nums dark:text-neutral-300" title={`${count} refusals in a row`}>
                  ×{count}
                </span>
              )}
              <span className={`rounded px-1.5 py-0.5 font-mono text-[10px] font-semibold ${GATE_STYLE[r.gate]}`} title={r.message}>
                {GATE_LABEL[r.gate]}
              </span>
            </div>
            <p className="mt-1 text-neutral-800 dark:text-neutral-200" data-testid="gate-sentence" title={r.message}>
              {gateSentence(r)}
            </p>
            {r.bodyPreview && (
              <p className="mt-1 truncate font-mono text-[11px] text-neutral-600 dark:text-neutral-300" title={r.bodyPreview}>
                “{r.bodyPreview}”
              </p>
            )}
            <RelativeTime iso={r.t} />
          </li>
        ))}
      </ol>
    </section>
  );
}

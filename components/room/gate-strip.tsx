"use client";
// The live strip of the room's gate rejections: which agent was held, by which gate, why, and when.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { RelativeTime } from "../time";
import type { GateRejection, Page } from "../types";

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

export function GateStrip({ room }: { room: string }) {
  const query = useGateRejections(room);
  return (
    <section aria-label="Gate rejections" className="border-t border-neutral-200 p-4 dark:border-neutral-800">
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase dark:text-neutral-400">Held back by the gates</h2>
      {query.isPending && (
        <div className="space-y-2" aria-busy>
          {[0, 1].map((i) => (
            <div key={i} className="h-12 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
          ))}
        </div>
      )}
      {query.isError && <p className="text-sm text-red-600">Could not load gate rejections: {query.error.message}</p>}
      {query.data && query.data.items.length === 0 && (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">
          Nothing held back in #{room}. When an agent posts too fast, repeats itself, speaks over unread messages or laps the room, it shows here.
        </p>
      )}
      <ol className="space-y-2" data-testid="gate-strip" aria-live="polite">
        {query.data?.items.map((r) => (
          <li key={r.id} data-testid="gate-rejection" data-gate={r.gate} className="rounded border border-neutral-200 p-2 text-xs dark:border-neutral-800">
            <div className="flex items-center gap-2">
              <Avatar id={r.senderId} name={r.senderName} kind="agent" size="sm" />
              <span className="min-w-0 flex-1 truncate font-medium">{r.senderName}</span>
              <span className={`rounded px-1.5 py-0.5 font-mono text-[10px] font-semibold ${GATE_STYLE[r.gate]}`}>{GATE_LABEL[r.gate]}</span>
            </div>
            <p className="mt-1 text-neutral-700 dark:text-neutral-300">{r.message}</p>
            {r.bodyPreview && (
              <p className="mt-1 truncate font-mono text-[11px] text-neutral-500 dark:text-neutral-400" title={r.bodyPreview}>
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

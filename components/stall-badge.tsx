"use client";
// "Stalled": a lease holder with no heartbeat or output for over half its lease. Given the moment that
// happens (or happened), it appears when the clock passes it; the Agents page and the Board's cards use it.
import { useNow } from "./use-now";

export function StallBadge({ at }: { at: string | null }) {
  const now = useNow(5_000);
  if (!at || now === null || Date.parse(at) > now) return null;
  return (
    <span
      className="inline-flex items-center rounded bg-red-100 px-1.5 py-0.5 text-[11px] font-medium text-red-800 dark:bg-red-900/60 dark:text-red-100"
      title={`No heartbeat or output for over half its lease (since ${new Date(at).toLocaleString()})`}
      data-testid="stalled"
    >
      stalled
    </span>
  );
}

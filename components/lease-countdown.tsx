"use client";
// A live lease countdown: amber in the last 5 minutes, red once the lease has run out.
import { useNow } from "./use-now";

const WARN_MS = 5 * 60 * 1000;

function format(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
}

export function LeaseCountdown({ expiresAt }: { expiresAt: string }) {
  const now = useNow(1000);
  const end = Date.parse(expiresAt);
  const left = now === null ? null : end - now;
  const tone =
    left === null || left > WARN_MS
      ? "text-blue-800 bg-blue-50 dark:text-blue-200 dark:bg-blue-950/50"
      : left > 0
        ? "text-amber-900 bg-amber-100 dark:text-amber-100 dark:bg-amber-900/60"
        : "text-red-800 bg-red-100 dark:text-red-100 dark:bg-red-900/60";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-mono text-[11px] tabular-nums ${tone}`}
      title={`Lease expires ${new Date(end).toLocaleString()}`}
      data-testid="lease"
      data-warning={left !== null && left <= WARN_MS ? "true" : "false"}
    >
      <svg aria-hidden viewBox="0 0 16 16" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth="1.6">
        <circle cx="8" cy="8" r="6.2" />
        <path d="M8 4.5V8l2.3 1.6" strokeLinecap="round" />
      </svg>
      {left === null ? "…" : left > 0 ? `${format(left)} left` : "lease expired"}
    </span>
  );
}

"use client";
// Relative time with the exact local time on hover.
import { useNow } from "./use-now";

function relative(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow(30_000);
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toLocaleString()} className="text-xs text-neutral-500 dark:text-neutral-400">
      {now === null ? date.toLocaleTimeString() : relative(now - date.getTime())}
    </time>
  );
}

"use client";
// The one way a time is shown: relative ("5 min ago", "in 2 h"), with the exact local date and time on
// hover. Before the page has mounted (the server's render) it shows the local time of day instead.
import { useNow } from "./use-now";

/** How far `ms` from now reads: past when positive, future when negative. */
function relative(ms: number): string {
  const ahead = ms < 0;
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 45) return ahead ? "in a moment" : "just now";
  const m = Math.round(s / 60);
  const h = Math.round(m / 60);
  const span = m < 60 ? `${m} min` : h < 24 ? `${h} h` : `${Math.round(h / 24)} d`;
  return ahead ? `in ${span}` : `${span} ago`;
}

/** The exact time, as the tooltip says it. */
function exactTime(iso: string): string {
  return new Date(iso).toLocaleString();
}

export function RelativeTime({ iso, className = "text-xs text-neutral-500 dark:text-neutral-400" }: { iso: string; className?: string }) {
  const now = useNow(30_000);
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={exactTime(iso)} className={className}>
      {/* The tick is up to 30 s old: a time written since would read as future ("in a moment") against it. */}
      {now === null ? date.toLocaleTimeString() : relative(Math.max(now, Date.now()) - date.getTime())}
    </time>
  );
}

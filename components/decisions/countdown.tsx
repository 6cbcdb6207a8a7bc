"use client";
// Time left until a deadline, ticking locally each second (a clock in the page, not a poll of the server).
import { useEffect, useState } from "react";

export function formatLeft(ms: number): string {
  if (ms <= 0) return "0:00";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (h >= 24) return `${Math.floor(h / 24)} d ${h % 24} h`;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** "4:32 left", amber in the last minute, "passed" after; the exact time on hover. */
export function Countdown({ deadline, passedLabel = "passed" }: { deadline: string; passedLabel?: string }) {
  const now = useNow();
  const left = Date.parse(deadline) - now;
  const tone = left <= 0 ? "text-red-700 dark:text-red-400" : left < 60_000 ? "text-amber-700 dark:text-amber-400" : "text-neutral-600 dark:text-neutral-300";
  return (
    <time dateTime={deadline} title={new Date(deadline).toLocaleString()} className={`tabular-nums ${tone}`} data-testid="countdown">
      {left <= 0 ? passedLabel : `${formatLeft(left)} left`}
    </time>
  );
}

"use client";
// The clock for what changes as time passes (a countdown, "5 min ago", a stall that begins later): null
// until mounted, so the server's render and the browser's first one agree, then the time every `everyMs`.
import { useEffect, useState } from "react";

export function useNow(everyMs: number): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

"use client";
// Presence as the server judged it (domain/principals/authenticate.ts, the one rule), kept true as time
// passes: each entry stays present for its `presentForMs` after the answer arrived, counted on this
// browser's clock, and the list is asked again when the first lapses (the person may well still be here).
import { useEffect, useState } from "react";

export interface Presence {
  presentForMs: number;
}

export function usePresence(entries: readonly Presence[] | undefined, answeredAt: number, refetch: () => unknown): (entry: Presence) => boolean {
  const [now, setNow] = useState(() => Date.now());
  const lapses = (entries ?? []).map((e) => answeredAt + e.presentForMs).filter((t) => t > now);
  const next = lapses.length ? Math.min(...lapses) : null;
  useEffect(() => {
    if (next === null) return;
    const timer = setTimeout(
      () => {
        setNow(Date.now());
        void refetch();
      },
      Math.max(0, next - Date.now()) + 500,
    );
    return () => clearTimeout(timer);
  }, [next, refetch]);
  return (entry) => entry.presentForMs > 0 && answeredAt + entry.presentForMs > now;
}

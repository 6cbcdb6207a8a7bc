"use client";
// One EventSource per tab: journal events invalidate the react-query caches they affect.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { staleQueries, type Notice } from "./live-invalidation";

export type LiveStatus = "connecting" | "live" | "reconnecting";

/** Invalidations are batched, so a burst of events costs one refetch per query, not one per event. */
const BATCH_MS = 150;

const LiveContext = createContext<LiveStatus>("connecting");

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext);
}

export function LiveEvents({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>("connecting");
  useEffect(() => {
    if (!enabled) return;
    // EventSource reconnects by itself and sends Last-Event-ID, so the server replays what we missed.
    const source = new EventSource("/api/stream");
    const pending = new Map<string, readonly unknown[]>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      for (const queryKey of pending.values()) queryClient.invalidateQueries({ queryKey });
      pending.clear();
    };
    source.addEventListener("ready", () => {
      setStatus("live");
      // Anything committed while we were away is refetched once.
      queryClient.invalidateQueries();
    });
    source.addEventListener("journal", (message) => {
      const notice = JSON.parse((message as MessageEvent<string>).data) as Notice;
      for (const key of staleQueries(notice)) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, BATCH_MS);
    });
    source.onerror = () => setStatus("reconnecting");
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [enabled, queryClient]);
  return <LiveContext.Provider value={status}>{children}</LiveContext.Provider>;
}

"use client";
// One EventSource per tab: journal events invalidate the react-query caches they affect. A stream that
// falls silent past its heartbeats is lost (./live-stall.ts): the tab says so and reconnects, catching up
// from the last event it saw.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { staleQueries, type Notice } from "./live-invalidation";
import { DEFAULT_HEARTBEAT_MS, heartbeatOf, isStalled, STALL_CHECK_MS } from "./live-stall";

export type LiveStatus = "connecting" | "live" | "reconnecting";

/** Invalidations are batched, so a burst of events costs one refetch per query, not one per event. */
const BATCH_MS = 150;

/** After a stream the browser gave up on (an error status such as 429 too_many_streams), try again this much later. */
const RETRY_MS = 3_000;

const LiveContext = createContext<LiveStatus>("connecting");

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext);
}

export function LiveEvents({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>("connecting");
  useEffect(() => {
    if (!enabled) return;
    const pending = new Map<string, readonly unknown[]>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let source: EventSource | undefined;
    let lastEventId = "";
    let lastFrameAt = Date.now();
    let heartbeatMs = DEFAULT_HEARTBEAT_MS;
    const flush = () => {
      timer = undefined;
      for (const queryKey of pending.values()) queryClient.invalidateQueries({ queryKey });
      pending.clear();
    };
    const connect = () => {
      source?.close();
      clearTimeout(retry);
      lastFrameAt = Date.now();
      // EventSource resends Last-Event-ID when it reconnects by itself; a fresh one says where it was with `after`.
      const stream = new EventSource(lastEventId ? `/api/stream?after=${encodeURIComponent(lastEventId)}` : "/api/stream");
      source = stream;
      const heard = () => {
        if (stream === source) lastFrameAt = Date.now();
      };
      stream.addEventListener("ready", (message) => {
        heard();
        heartbeatMs = heartbeatOf((message as MessageEvent<string>).data);
        setStatus("live");
        // Anything committed while we were away is refetched once.
        queryClient.invalidateQueries();
      });
      stream.addEventListener("heartbeat", heard);
      stream.addEventListener("journal", (message) => {
        heard();
        const event = message as MessageEvent<string>;
        if (event.lastEventId) lastEventId = event.lastEventId;
        const notice = JSON.parse(event.data) as Notice;
        for (const key of staleQueries(notice)) pending.set(JSON.stringify(key), key);
        timer ??= setTimeout(flush, BATCH_MS);
      });
      stream.onerror = () => {
        if (stream !== source) return;
        setStatus("reconnecting");
        // A refused stream (an error status) is closed for good: EventSource will not retry it.
        if (stream.readyState === EventSource.CLOSED) retry = setTimeout(connect, RETRY_MS);
      };
    };
    // A server that stops answering without closing the connection raises no error: only silence tells.
    const watchdog = setInterval(() => {
      if (!isStalled(lastFrameAt, Date.now(), heartbeatMs)) return;
      setStatus("reconnecting");
      connect();
    }, STALL_CHECK_MS);
    connect();
    return () => {
      clearInterval(watchdog);
      clearTimeout(retry);
      clearTimeout(timer);
      source?.close();
    };
  }, [enabled, queryClient]);
  return <LiveContext.Provider value={status}>{children}</LiveContext.Provider>;
}

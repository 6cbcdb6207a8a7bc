"use client";
// The tab's side of the live stream: journal events invalidate the react-query caches they affect. The
// stream itself is shared by every tab of the browser (./live-worker.ts); a browser without shared
// workers holds one in the tab (./live-source.ts). Either way a tab that leaves says so at once.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { invalidationBatcher } from "./live-batch";
import { staleQueries, type Notice } from "./live-invalidation";
import { type LiveFrame, type LiveStatus, openLiveSource } from "./live-source";
import type { TabMessage } from "./live-worker";

export type { LiveStatus };

const LiveContext = createContext<LiveStatus>("connecting");

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext);
}

/** Hears the stream until the returned function is called. */
function listen(onFrame: (frame: LiveFrame) => void): () => void {
  if (typeof SharedWorker === "undefined") {
    const source = openLiveSource(onFrame);
    return () => source.close();
  }
  const worker = new SharedWorker(new URL("./live-worker.ts", import.meta.url), { name: "quorum-live", type: "module" });
  worker.port.onmessage = (message: MessageEvent<LiveFrame>) => onFrame(message.data);
  worker.port.start();
  return () => {
    worker.port.postMessage("bye" satisfies TabMessage);
    worker.port.close();
  };
}

export function LiveEvents({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>("connecting");
  useEffect(() => {
    if (!enabled) return;
    // A burst of events costs one refetch per query, not one per event (./live-batch.ts).
    const batch = invalidationBatcher((keys) => {
      for (const queryKey of keys) queryClient.invalidateQueries({ queryKey });
    });
    const onFrame = (frame: LiveFrame) => {
      if (frame.type === "status") setStatus(frame.status);
      // Anything committed while the stream was away is refetched once.
      else if (frame.type === "ready") queryClient.invalidateQueries();
      else batch.add(staleQueries(JSON.parse(frame.data) as Notice));
    };
    let stop: (() => void) | undefined = listen(onFrame);
    // A page put away in the back/forward cache lets go of the stream, and takes it up again when shown.
    const onHide = () => {
      stop?.();
      stop = undefined;
    };
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted || stop) return;
      setStatus("connecting");
      stop = listen(onFrame);
      queryClient.invalidateQueries();
    };
    window.addEventListener("pagehide", onHide);
    window.addEventListener("pageshow", onShow);
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("pageshow", onShow);
      batch.cancel();
      onHide();
    };
  }, [enabled, queryClient]);
  return <LiveContext.Provider value={status}>{children}</LiveContext.Provider>;
}

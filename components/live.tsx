"use client";
// One EventSource per tab: journal events invalidate the react-query caches they affect.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";

export type LiveStatus = "connecting" | "live" | "reconnecting";

interface Notice {
  id: number;
  kind: string;
  room: string | null;
}

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
    source.addEventListener("ready", () => {
      setStatus("live");
      // Anything committed while we were away is refetched once.
      queryClient.invalidateQueries();
    });
    source.addEventListener("journal", (message) => {
      const notice = JSON.parse((message as MessageEvent<string>).data) as Notice;
      queryClient.invalidateQueries({ queryKey: ["journal"] });
      if (notice.kind === "MessageSent" && notice.room) {
        queryClient.invalidateQueries({ queryKey: ["messages", notice.room] });
      }
      if (notice.kind === "PrincipalCreated" || notice.kind === "HumanSignedIn") {
        queryClient.invalidateQueries({ queryKey: ["principals"] });
      }
      if (notice.kind === "RoomCreated") queryClient.invalidateQueries({ queryKey: ["rooms"] });
    });
    source.onerror = () => setStatus("reconnecting");
    return () => source.close();
  }, [enabled, queryClient]);
  return <LiveContext.Provider value={status}>{children}</LiveContext.Provider>;
}

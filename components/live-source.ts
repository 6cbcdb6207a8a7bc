// The one connection to /api/stream: reconnects after an error status, notices silence past the
// server's heartbeats (./live-stall.ts), and resumes from the last event it saw. It runs where the
// browser keeps it for all tabs at once (./live-worker.ts), or in a tab of its own where the browser
// has no shared workers; either way it speaks in frames, which ./live.tsx turns into refetches.
import { DEFAULT_HEARTBEAT_MS, heartbeatOf, isStalled, STALL_CHECK_MS } from "./live-stall";

export type LiveStatus = "connecting" | "live" | "reconnecting";

/** What a tab hears from the stream. `ready` means it (re)connected: whatever was missed is refetched. */
export type LiveFrame = { type: "status"; status: LiveStatus } | { type: "ready" } | { type: "journal"; data: string };

/** After a stream the browser gave up on (an error status such as 429 too_many_streams), try again this much later. */
const RETRY_MS = 3_000;

export interface LiveSource {
  /** The status now, for a tab that joins an open stream. */
  status(): LiveStatus;
  close(): void;
}

export function openLiveSource(emit: (frame: LiveFrame) => void): LiveSource {
  let status: LiveStatus = "connecting";
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let lastEventId = "";
  let lastFrameAt = Date.now();
  let heartbeatMs = DEFAULT_HEARTBEAT_MS;
  const setStatus = (next: LiveStatus) => {
    if (next === status) return;
    status = next;
    emit({ type: "status", status });
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
      emit({ type: "ready" });
    });
    stream.addEventListener("heartbeat", heard);
    stream.addEventListener("journal", (message) => {
      heard();
      const event = message as MessageEvent<string>;
      if (event.lastEventId) lastEventId = event.lastEventId;
      emit({ type: "journal", data: event.data });
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
  return {
    status: () => status,
    close() {
      clearInterval(watchdog);
      clearTimeout(retry);
      source?.close();
      source = undefined;
    },
  };
}

// When a live stream counts as lost: the server sends a heartbeat event every few seconds
// (domain/journal/stream.ts announces the period in `ready`), so silence means it stopped answering,
// even while the TCP connection stays open and the browser's EventSource reports nothing.

/** The period the browser assumes until the server's `ready` says otherwise. */
export const DEFAULT_HEARTBEAT_MS = 5_000;

/** Missed beats before giving up on a stream: one late beat is a busy server, three are a lost one. */
const MISSED_BEATS = 3;

/** How often the browser checks for silence. */
export const STALL_CHECK_MS = 1_000;

/** How long without any frame (event, journal notice or heartbeat) before a stream is lost. */
export function stallAfterMs(heartbeatMs: number): number {
  return MISSED_BEATS * Math.max(heartbeatMs, 1_000);
}

/** Whether a stream whose last frame arrived at `lastFrameAt` is lost at `now`. */
export function isStalled(lastFrameAt: number, now: number, heartbeatMs: number): boolean {
  return now - lastFrameAt > stallAfterMs(heartbeatMs);
}

/** The heartbeat period a `ready` event announces, or the default for one that announces none. */
export function heartbeatOf(readyData: string): number {
  try {
    const value = (JSON.parse(readyData) as { heartbeatMs?: unknown }).heartbeatMs;
    return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : DEFAULT_HEARTBEAT_MS;
  } catch {
    return DEFAULT_HEARTBEAT_MS;
  }
}

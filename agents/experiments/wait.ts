// Waiting for the hub to reach a state: re-checked whenever the journal moves (the process's announcer tells),
// and every few seconds besides, up to a deadline or until the experiment is interrupted.
import type { ServerContext } from "../../domain/context";

const RECHECK_MS = 2_000;

/** Resolves with `probe`'s first truthy answer; null when the deadline passes or `signal` aborts first. */
export async function untilJournalShows<T>(server: ServerContext, probe: () => Promise<T | null | undefined | false>, ms: number, signal?: AbortSignal): Promise<T | null> {
  let wake: () => void = () => {};
  const unsubscribe = await server.subscribe(() => wake());
  const onAbort = () => wake();
  signal?.addEventListener("abort", onAbort, { once: true });
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline && !signal?.aborted) {
      const value = await probe();
      if (value) return value;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(RECHECK_MS, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return null;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    unsubscribe();
  }
}

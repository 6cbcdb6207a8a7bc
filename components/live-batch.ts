// How a tab turns a stream of journal events into refetches: the caches they make stale are collected and
// invalidated together, a short moment after the first event and never more often than once a second.
import type { QueryKey } from "@tanstack/react-query";

/** Events of one commit arrive within a few milliseconds: wait this long after the first before refetching. */
export const BATCH_MS = 150;
/**
 * On a busy hub events come faster than a page can usefully redraw: an open Board refetched and redrew its list
 * for each batch, a third of a core at four new tasks a second (bench/results/2026-12-08-tests.md). A second apart
 * still reads as live.
 */
export const MIN_GAP_MS = 1_000;

export interface BatchTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const browserTimers: BatchTimers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** `add` the keys an event makes stale; `invalidate` gets each distinct key once per flush. */
export function invalidationBatcher(invalidate: (keys: readonly QueryKey[]) => void, timers: BatchTimers = browserTimers) {
  const pending = new Map<string, QueryKey>();
  let timer: unknown;
  let flushedAt = Number.NEGATIVE_INFINITY;
  const flush = () => {
    timer = undefined;
    flushedAt = timers.now();
    const keys = [...pending.values()];
    pending.clear();
    invalidate(keys);
  };
  return {
    add(keys: readonly QueryKey[]) {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      timer ??= timers.setTimeout(flush, Math.max(BATCH_MS, flushedAt + MIN_GAP_MS - timers.now()));
    },
    cancel() {
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}

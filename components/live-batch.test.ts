import { describe, expect, it } from "vitest";
import { BATCH_MS, type BatchTimers, invalidationBatcher, MIN_GAP_MS } from "./live-batch";

/** Timers on a hand-turned clock: `advance` runs each timer that falls due, in order. */
function handTimers() {
  let now = 0;
  let due: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  const timers: BatchTimers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = ++ids;
      due.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      due = due.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (let next = due.sort((a, b) => a.at - b.at)[0]; next && next.at <= end; next = due.sort((a, b) => a.at - b.at)[0]) {
      due = due.filter((t) => t !== next);
      now = next.at;
      next.run();
    }
    now = end;
  };
  return { timers, advance };
}

describe("the tab's refetches", () => {
  it("a lone event is refetched a moment later, its stale caches once each", () => {
    const { timers, advance } = handTimers();
    const flushes: string[][] = [];
    const batch = invalidationBatcher((keys) => flushes.push(keys.map((k) => JSON.stringify(k))), timers);
    batch.add([["tasks"], ["roster"]]);
    batch.add([["tasks"]]);
    advance(BATCH_MS - 1);
    expect(flushes).toEqual([]);
    advance(1);
    expect(flushes).toEqual([['["tasks"]', '["roster"]']]);
  });

  it("four events a second for five seconds refetch about once a second, and the last is never dropped", () => {
    const { timers, advance } = handTimers();
    const flushes: { at: number; keys: number }[] = [];
    const batch = invalidationBatcher((keys) => flushes.push({ at: timers.now(), keys: keys.length }), timers);
    for (let i = 0; i < 20; i++) {
      batch.add([["tasks"], ["task", i]]);
      advance(250);
    }
    advance(MIN_GAP_MS);
    expect(flushes.length).toBeGreaterThanOrEqual(5);
    expect(flushes.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < flushes.length; i++) expect(flushes[i].at - flushes[i - 1].at).toBeGreaterThanOrEqual(MIN_GAP_MS);
    // Every event's own cache was invalidated in some flush: 20 task keys plus the list once per flush.
    expect(flushes.reduce((sum, f) => sum + f.keys, 0)).toBe(20 + flushes.length);
  });

  it("a tab that closes cancels what was pending", () => {
    const { timers, advance } = handTimers();
    const flushes: unknown[] = [];
    const batch = invalidationBatcher((keys) => flushes.push(keys), timers);
    batch.add([["tasks"]]);
    batch.cancel();
    advance(MIN_GAP_MS * 2);
    expect(flushes).toEqual([]);
  });
});

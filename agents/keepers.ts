// Keepers a run may have besides its task's (agents/task-keeper.ts): a wall-clock limit, and several at once.
import type { Clock } from "../domain/clock";
import type { RunKeeper } from "./loop";

/** Ends the run at the first boundary after `minutes` of this drive (a resumed run gets its minutes again). */
export function wallClockLimit(minutes: number, clock: Clock): RunKeeper {
  const until = clock.now().getTime() + minutes * 60_000;
  return {
    atBoundary: async () => (clock.now().getTime() >= until ? `ran past its ${minutes}-minute limit (QUORUM_RUN_MAX_MINUTES)` : null),
    toolReturned: async () => {},
  };
}

/** Asks each keeper in turn; the first reason to end wins, and each sees every tool result. */
export function allOf(keepers: RunKeeper[]): RunKeeper {
  return {
    atBoundary: async (state) => {
      for (const keeper of keepers) {
        const reason = await keeper.atBoundary(state);
        if (reason) return reason;
      }
      return null;
    },
    toolReturned: async (state, returned) => {
      for (const keeper of keepers) await keeper.toolReturned(state, returned);
    },
  };
}

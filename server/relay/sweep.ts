// The relay's periodic sweep (every 30 s, DESIGN §5): close focus windows that are over, purge dead hold tokens.
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { FOCUS_SWEEP_INTERVAL_MS, sweepFocusWindows } from "./focus";
import { purgeExpiredHoldTokens } from "./hold-tokens";

export const RELAY_SWEEP_INTERVAL_MS = FOCUS_SWEEP_INTERVAL_MS;

/** One pass; safe to run from every app instance at once (the window sweep takes an advisory lock). */
export async function sweepRelay(db: Db, clock: Clock): Promise<{ windowsClosed: number; holdTokensPurged: number }> {
  const windowsClosed = await sweepFocusWindows(db, clock);
  const holdTokensPurged = await purgeExpiredHoldTokens(db, clock.now());
  return { windowsClosed, holdTokensPurged };
}

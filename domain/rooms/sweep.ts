// The relay's periodic sweep (DESIGN §5; its interval is set with every other in domain/sweepers/schedule.ts):
// close focus windows that are over, purge dead hold tokens.
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { sweepFocusWindows } from "./focus";
import { purgeExpiredHoldTokens } from "./hold-tokens";

/** One pass; safe to run from every app instance at once (the window sweep takes an advisory lock). */
export async function sweepRelay(db: Db, clock: Clock): Promise<{ windowsClosed: number; holdTokensPurged: number }> {
  const windowsClosed = await sweepFocusWindows(db, clock);
  const holdTokensPurged = await purgeExpiredHoldTokens(db, clock.now());
  return { windowsClosed, holdTokensPurged };
}

// Which of these concrete paths (a commit's staged files) are reserved by someone else: the pre-commit hook's question.
import { and, eq, gt, ne } from "drizzle-orm";
import { z } from "zod";
import { reservations, type ReservationMode } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { DEFAULT_SCOPE, scopeField } from "./guards";
import { pathMatcher, repoPath } from "./patterns";
import { selectReservationViews } from "./view";

/** Paths one check may ask about: a large commit's staged files; past it, check in batches. */
export const MAX_CHECKED_PATHS = 5_000;
/** Their total length: every held glob is matched against every byte of them. */
export const MAX_CHECKED_BYTES = 256 * 1024;

export const checkPathsInput = z.strictObject({
  /** Repository-relative paths; for a rename send both the old and the new path. */
  paths: z
    .array(repoPath)
    .min(1, "send at least one path")
    .max(MAX_CHECKED_PATHS)
    .refine((paths) => paths.reduce((sum, p) => sum + p.length, 0) <= MAX_CHECKED_BYTES, `the paths may total at most ${MAX_CHECKED_BYTES} characters: check in batches`),
  scope: scopeField.optional(),
});
export type CheckPathsInput = z.infer<typeof checkPathsInput>;

export interface PathHold {
  path: string;
  pattern: string;
  reservationId: string;
  fence: number;
  holderId: string;
  holderName: string;
  mode: ReservationMode;
  reason: string;
  expiresAt: string;
}

export interface PathCheck {
  /** True when no path is held exclusively by someone else. */
  ok: boolean;
  /** Paths under another principal's exclusive reservation: a commit touching them is refused. */
  blocked: PathHold[];
  /** Paths under another principal's shared reservation: allowed, but they are working nearby. */
  shared: PathHold[];
}

/** Reading only: checks never grant, renew or journal anything. */
export async function checkPaths(db: Executor, caller: Principal, input: CheckPathsInput, now: Date): Promise<PathCheck> {
  const live = await selectReservationViews(db).where(
    and(eq(reservations.scope, input.scope ?? DEFAULT_SCOPE), eq(reservations.status, "active"), gt(reservations.expiresAt, now), ne(reservations.holderId, caller.id)),
  );
  const blocked: PathHold[] = [];
  const shared: PathHold[] = [];
  const held = live.map(({ row, holderName }) => ({ row, holderName, match: pathMatcher(row.patterns) }));
  for (const path of new Set(input.paths)) {
    for (const { row, holderName, match } of held) {
      const pattern = match(path);
      if (pattern === null) continue;
      const hold = {
        path,
        pattern,
        reservationId: row.id,
        fence: row.fence,
        holderId: row.holderId,
        holderName,
        mode: row.mode,
        reason: row.reason,
        expiresAt: row.expiresAt.toISOString(),
      };
      (row.mode === "exclusive" ? blocked : shared).push(hold);
    }
  }
  return { ok: blocked.length === 0, blocked, shared };
}

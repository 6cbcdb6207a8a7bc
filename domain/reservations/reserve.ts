// Grants a reservation of glob patterns (exclusive or shared) under a lease, or refuses it naming the holders.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { RESERVATION_MODES, reservations, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { describeHolders, findConflicts, lockScope } from "./conflicts";
import { DEFAULT_SCOPE, DEFAULT_TTL_SECONDS, requireReserver, scopeField, ttlField } from "./guards";
import { requireAgentPatterns, requireAgentRoom, requireAgentTtl } from "./limits";
import { braceExpansionCount } from "./brace-count";
import { globPattern, MAX_GRANT_EXPANSIONS } from "./patterns";
import { readReservationView, type ReservationView } from "./view";

export const reservePathsInput = z.strictObject({
  /** Repository-relative globs: `src/lib/**`, `docs/*.md`, `src/{a,b}/index.ts`, `README.md`. */
  patterns: z
    .array(globPattern)
    .min(1, "reserve at least one pattern")
    .max(32)
    .refine((patterns) => patterns.reduce((sum, p) => sum + braceExpansionCount(p), 0) <= MAX_GRANT_EXPANSIONS, {
      message: `the patterns may expand to at most ${MAX_GRANT_EXPANSIONS} globs together: every held glob is compared with every other`,
    }),
  /** exclusive (default): nobody else may hold an overlapping path; shared: others may share it. */
  mode: z.enum(RESERVATION_MODES).optional(),
  /** The lease; renew before it runs out (default 1800; an agent may ask for at most 7200). */
  ttlSeconds: ttlField.optional(),
  reason: z.string().trim().min(1, "say why you reserve these paths").max(500),
  /** The task the edit is for: the reservation shows on its drawer. */
  taskId: z.uuid().optional(),
  scope: scopeField.optional(),
});
export type ReservePathsInput = z.infer<typeof reservePathsInput>;

export async function reservePaths(db: Db, caller: Principal, input: ReservePathsInput, clock: Clock): Promise<ReservationView> {
  requireReserver(caller);
  const now = clock.now();
  const scope = input.scope ?? DEFAULT_SCOPE;
  const mode = input.mode ?? "exclusive";
  const patterns = [...new Set(input.patterns)];
  const ttlSeconds = input.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  requireAgentTtl(caller, ttlSeconds);
  requireAgentPatterns(caller, patterns);
  return db.transaction(async (tx) => {
    if (input.taskId) {
      const [task] = await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, input.taskId));
      if (!task) throw fail.notFound("task", `no task with id '${input.taskId}'`);
    }
    await lockScope(tx, scope);
    await requireAgentRoom(tx, caller, now);
    const holders = await findConflicts(tx, { scope, patterns, mode, callerId: caller.id, now });
    if (holders.length > 0) {
      throw fail.conflict("reservation", "reserved", `already reserved: ${describeHolders(holders)}`, { holders });
    }
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    const [row] = await tx
      .insert(reservations)
      .values({
        scope,
        holderId: caller.id,
        patterns,
        mode,
        reason: input.reason,
        taskId: input.taskId ?? null,
        ttlSeconds,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await appendEvent(tx, {
      kind: "ReservationGranted",
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: { reservationId: row.id, fence: row.fence, scope, patterns, mode, reason: row.reason, expiresAt: expiresAt.toISOString() },
    });
    return readReservationView(tx, row.id);
  });
}

// What one agent may hold: reservations exist so agents can edit side by side, and an agent that
// holds the whole repository for a day (`**`, 24 h) stops every other one. Humans are exempt: they
// decide, and a human freezing the tree for a release is a decision, not a runaway loop.
import picomatch from "picomatch";
import { and, count, eq, gt, sql } from "drizzle-orm";
import { reservations } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { expandPattern } from "./patterns";

/**
 * An agent's lease, per grant and per renewal: 2 hours. A task's edit takes minutes to an hour and a
 * live agent renews (heartbeats do the same for tasks); a stalled one frees its paths within 2 hours.
 */
export const MAX_AGENT_TTL_SECONDS = 2 * 60 * 60;

/**
 * Live reservations one agent may hold at once, across scopes: 8. One task touches a few areas; an
 * agent holding more is hoarding, and each grant already carries up to 32 patterns.
 */
export const MAX_AGENT_RESERVATIONS = 8;

/** The advisory-lock namespace of one holder's grants (the scope lock is 8451110). */
const HOLDER_LOCK = 8451111;

/**
 * A glob whose globstar reaches from the repository root and ends in a wildcard (`**`, `**\/*.ts`,
 * `*\/**`, `{src,**}`) covers the whole tree, or a kind of file everywhere in it. An agent reserves
 * under a named folder (`src/lib/**`), names files (`README.md`, even everywhere: `**\/x.ts`), or
 * globs the root folder alone (`*.md`).
 */
function reachesWholeTree(pattern: string): boolean {
  return expandPattern(pattern).some((glob) => {
    const { base, glob: rest } = picomatch.scan(glob);
    const last = rest.split("/").at(-1) ?? "";
    return base === "" && rest.includes("**") && picomatch.scan(last).isGlob;
  });
}

function isLimited(caller: Principal): boolean {
  return caller.kind === "agent";
}

/** An agent's lease length, refused (400) past the cap. */
export function requireAgentTtl(caller: Principal, ttlSeconds: number): void {
  if (!isLimited(caller) || ttlSeconds <= MAX_AGENT_TTL_SECONDS) return;
  throw fail.invalid(
    "reservation",
    `an agent may reserve for at most ${MAX_AGENT_TTL_SECONDS} seconds (${MAX_AGENT_TTL_SECONDS / 3600} hours) at a time: renew before it runs out`,
    {
      issues: [{ code: "too_big", path: ["ttlSeconds"], message: `at most ${MAX_AGENT_TTL_SECONDS} seconds for an agent` }],
      maxTtlSeconds: MAX_AGENT_TTL_SECONDS,
    },
  );
}

/** An agent's patterns, refused (400) when one reaches over the whole repository. */
export function requireAgentPatterns(caller: Principal, patterns: string[]): void {
  if (!isLimited(caller)) return;
  const issues = patterns.flatMap((pattern, i) =>
    reachesWholeTree(pattern)
      ? [{ code: "custom", path: ["patterns", i], message: `'${pattern}' reaches the whole repository: reserve under a folder (src/lib/**) or name the files` }]
      : [],
  );
  if (issues.length) throw fail.invalid("reservation", `an agent may not reserve the whole repository: ${issues.map((i) => i.message).join("; ")}`, { issues });
}

/**
 * Inside the grant's transaction: an agent holding the most live reservations it may is refused (409)
 * until it releases one. Its grants queue on a lock of their own, so two scopes cannot both slip under.
 */
export async function requireAgentRoom(tx: Executor, caller: Principal, now: Date): Promise<void> {
  if (!isLimited(caller)) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${HOLDER_LOCK}, hashtext(${caller.id}))`);
  const [{ live }] = await tx
    .select({ live: count() })
    .from(reservations)
    .where(and(eq(reservations.holderId, caller.id), eq(reservations.status, "active"), gt(reservations.expiresAt, now)));
  if (live >= MAX_AGENT_RESERVATIONS) {
    throw fail.conflict(
      "reservation",
      "too_many_reservations",
      `you hold ${live} live reservations, the most an agent may: release one you are done with (or let it expire) first`,
      { limit: MAX_AGENT_RESERVATIONS, held: live },
    );
  }
}

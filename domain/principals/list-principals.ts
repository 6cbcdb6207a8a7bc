// The principals: who exists, of which kind and role, and who is present now (the roster with its numbers per
// agent is domain/roster/roster.ts).
import { asc, eq, type SQL, sql } from "drizzle-orm";
import { principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { presenceOf } from "./authenticate";
import { toPrincipal, type Principal } from "../principal";
import { isUuid } from "../ids";

export interface RosterEntry {
  id: string;
  kind: "human" | "agent" | "system";
  name: string;
  role: string | null;
  present: boolean;
  /** How much longer it stays present unless seen again (0: away); the browser counts it down. */
  presentForMs: number;
  lastSeenAt: string | null;
  /**
   * Its place in the order principals were created (0 the first; those created in one transaction, by
   * name): what its colour is chosen by, so a newcomer never moves anyone else's colour.
   */
  order: number;
}

export async function listPrincipals(db: Executor, clock: Clock, kind?: "human" | "agent"): Promise<RosterEntry[]> {
  return rosterEntries(db, clock, kind ? eq(principals.kind, kind) : undefined);
}

/** One principal as the roster shows it (an agent's page), or undefined. */
export async function rosterEntryOf(db: Executor, clock: Clock, id: string): Promise<RosterEntry | undefined> {
  return isUuid(id) ? (await rosterEntries(db, clock, eq(principals.id, id)))[0] : undefined;
}

async function rosterEntries(db: Executor, clock: Clock, where: SQL | undefined): Promise<RosterEntry[]> {
  // Ranked over everyone before any filter: a principal's order does not depend on who is asked for.
  const ranked = db
    .select({ id: principals.id, order: sql<number>`(row_number() over (order by ${principals.createdAt}, ${principals.name}) - 1)::int`.as("order") })
    .from(principals)
    .as("ranked");
  const rows = await db
    .select({ principal: principals, order: ranked.order })
    .from(principals)
    .innerJoin(ranked, eq(ranked.id, principals.id))
    .where(where)
    .orderBy(asc(principals.name));
  const now = clock.now();
  return rows.map(({ principal: row, order }) => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    role: row.role,
    ...presenceOf(row.lastSeenAt, now),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    order,
  }));
}

/** One principal by id, or a 404. */
export async function readPrincipal(db: Executor, id: string): Promise<Principal> {
  const [row] = isUuid(id) ? await db.select().from(principals).where(eq(principals.id, id)) : [];
  if (!row) throw fail.notFound("principal", `no principal ${id.slice(0, 64)}`);
  return toPrincipal(row);
}

// The roster: who exists, of which kind and role, and who is present now.
import { asc, eq } from "drizzle-orm";
import { principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { PRESENCE_WINDOW_MS } from "./authenticate";
import { toPrincipal, type Principal } from "./types";
import { isUuid } from "../ids";

export interface RosterEntry {
  id: string;
  kind: "human" | "agent" | "system";
  name: string;
  role: string | null;
  present: boolean;
  lastSeenAt: string | null;
}

export async function listPrincipals(db: Executor, clock: Clock, kind?: "human" | "agent"): Promise<RosterEntry[]> {
  const rows = await db
    .select()
    .from(principals)
    .where(kind ? eq(principals.kind, kind) : undefined)
    .orderBy(asc(principals.name));
  const horizon = clock.now().getTime() - PRESENCE_WINDOW_MS;
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    role: row.role,
    present: row.lastSeenAt !== null && row.lastSeenAt.getTime() >= horizon,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  }));
}

/** One principal by id, or a 404. */
export async function readPrincipal(db: Executor, id: string): Promise<Principal> {
  const [row] = isUuid(id) ? await db.select().from(principals).where(eq(principals.id, id)) : [];
  if (!row) throw fail.notFound("principal", `no principal ${id.slice(0, 64)}`);
  return toPrincipal(row);
}

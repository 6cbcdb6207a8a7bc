// How the built-in team thinks, as its latest worker announced: scripted (no model configured) or a model's name.
import { desc, eq } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import { payloadOf } from "../journal/payloads";

export interface TeamStatus {
  /** `scripted` when no model is configured, else the model's name; null before any worker started. */
  mode: string | null;
  roles: string[];
  startedAt: string | null;
}

export async function readTeamStatus(db: Executor): Promise<TeamStatus> {
  const [latest] = await db.select().from(events).where(eq(events.kind, "TeamStarted")).orderBy(desc(events.id)).limit(1);
  if (!latest) return { mode: null, roles: [], startedAt: null };
  const data = payloadOf(latest, "TeamStarted");
  return { mode: data.mode, roles: data.roles, startedAt: latest.t.toISOString() };
}

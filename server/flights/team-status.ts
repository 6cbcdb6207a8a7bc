// How the built-in team thinks, as its latest worker announced: scripted (no model configured) or a model's name.
import { desc, eq } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import { payloadOf } from "../journal/payloads";
import { readModelState, type ModelState } from "./model-state";

export interface TeamStatus {
  /** `scripted` when no model is configured, else the model's name; null before any worker started. */
  mode: string | null;
  roles: string[];
  startedAt: string | null;
  /** The live model's state (from its runs' ModelResponded and ModelFailed); null when the team runs scripted. */
  model: ModelState | null;
}

export async function readTeamStatus(db: Executor): Promise<TeamStatus> {
  const [latest] = await db.select().from(events).where(eq(events.kind, "TeamStarted")).orderBy(desc(events.id)).limit(1);
  if (!latest) return { mode: null, roles: [], startedAt: null, model: null };
  const data = payloadOf(latest, "TeamStarted");
  const model = data.mode === "scripted" ? null : await readModelState(db, data.mode);
  return { mode: data.mode, roles: data.roles, startedAt: latest.t.toISOString(), model };
}

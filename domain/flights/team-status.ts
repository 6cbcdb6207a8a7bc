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
  /** Each member's model by agent name (`scripted`, or `<wire>:<model>`), as the latest worker hosting it announced. */
  members: Record<string, string>;
}

/** How many recent starts are read for the members' models: workers hosting some roles each announce their own. */
const RECENT_STARTS = 20;

export async function readTeamStatus(db: Executor): Promise<TeamStatus> {
  const starts = await db.select().from(events).where(eq(events.kind, "TeamStarted")).orderBy(desc(events.id)).limit(RECENT_STARTS);
  const [latest] = starts;
  if (!latest) return { mode: null, roles: [], startedAt: null, model: null, members: {} };
  const data = payloadOf(latest, "TeamStarted");
  const model = data.mode === "scripted" ? null : await readModelState(db, data.mode);
  const members: Record<string, string> = {};
  // Newest first: a member keeps the model of the latest start that hosted it.
  for (const start of starts) for (const [name, memberModel] of Object.entries(payloadOf(start, "TeamStarted").models ?? {})) members[name] ??= memberModel;
  return { mode: data.mode, roles: data.roles, startedAt: latest.t.toISOString(), model, members };
}

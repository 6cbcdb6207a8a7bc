// What every role's step receives: the database, the clock, the team, and how its roles think.
import type { Db } from "../../db/client";
import type { Clock } from "../../server/clock";
import { CHOSEN_SCRIPTED } from "../../server/flights/hand-back";
import type { ModelClient } from "../model/model-client";
import { scriptedClient, type ScriptEntry } from "../model/scripted";
import type { Role, Team } from "./team";

export interface TeamContext {
  db: Db;
  clock: Clock;
  team: Team;
  /** The live model every role uses, or null: then each run gets its role's script. */
  model: ModelClient | null;
  /** The command that runs the workpiece's tests. */
  testCommand: string[];
  loadPrinciples(): Promise<string[]>;
  /** Replaces a role's default script when no model is configured (the zero-intelligence cells). */
  scripts?: Partial<Record<Role, (input: ScriptInput) => ScriptEntry[]>>;
}

/** What a role's script may look at: the reviewer's rule reads the diff and the evidence. */
export interface ScriptInput {
  goal?: string;
  diff?: string;
  evidence?: string;
}

/**
 * The live model if one is configured, else a scripted client for this one run. A flight the human
 * chose to run scripted (after its model failed) gets the script whatever is configured.
 */
export function thinker(ctx: TeamContext, role: Role, script: (input: ScriptInput) => ScriptEntry[], input: ScriptInput = {}, flightMode?: string | null): ModelClient {
  const live = flightMode === CHOSEN_SCRIPTED ? null : ctx.model;
  return live ?? scriptedClient((ctx.scripts?.[role] ?? script)(input));
}

export function modeOf(ctx: Pick<TeamContext, "model">): string {
  return ctx.model ? ctx.model.name : "scripted";
}

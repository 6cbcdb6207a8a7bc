// What every role's step receives: the database, the clock, the team, and how its roles think.
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { CHOSEN_SCRIPTED } from "../../domain/flights/hand-back";
import type { Pace } from "../loop";
import type { ModelClient } from "../model/model-client";
import { scriptedClient, type ScriptStep } from "../model/scripted";
import type { FlightPlace } from "../../domain/flights/place";
import type { Tool } from "../tools/tool";
import type { Role, Team } from "./team";

export interface TeamContext {
  db: Db;
  clock: Clock;
  team: Team;
  /** The live model every role uses unless `models` names its own, or null: then each run gets its role's script. */
  model: ModelClient | null;
  /** Each role's own model (QUORUM_MODEL_<ROLE>, built once per distinct model), over `model`. */
  models?: Partial<Record<Role, ModelClient>>;
  /** The command that runs the tests of a flight that names none (QUORUM_TEST_COMMAND, else `node --test`). */
  testCommand: string[];
  /**
   * How run_tests is made for a command: the sandboxed runner when absent. Tests give a runner that fails on
   * cue: nothing a run writes in the sandbox outlives it, so a flake cannot remember itself there.
   */
  testTool?: (command: string[]) => Tool;
  /** How long a review may take before the reviewer is re-asked, and as long again before the room is told. */
  reviewDeadlineMs: number;
  /** How long a released subtask waits before the team takes it again (RELEASE_COOL_DOWN_MS unless a test says otherwise). */
  releaseCoolDownMs?: number;
  /** How long one drive of a run may take on the wall clock (QUORUM_RUN_MAX_MINUTES); unbounded when absent. */
  runMaxMinutes?: number;
  loadPrinciples(): Promise<string[]>;
  /** Replaces a role's default script when no model is configured (the zero-intelligence cells). */
  scripts?: Partial<Record<Role, (input: ScriptInput) => ScriptStep[]>>;
  /** The pause after each visible action of a role, each tool call and each post, so a person can watch them land (QUORUM_PACE_MS). */
  pace?: Pace;
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
export function thinker(ctx: TeamContext, role: Role, script: (input: ScriptInput) => ScriptStep[], input: ScriptInput = {}, flightMode?: string | null): ModelClient {
  const live = flightMode === CHOSEN_SCRIPTED ? null : modelOf(ctx, role);
  return live ?? scriptedClient((ctx.scripts?.[role] ?? script)(input));
}

/** The live model `role` thinks with, or null when the team runs scripted. */
export function modelOf(ctx: Pick<TeamContext, "model" | "models">, role: Role): ModelClient | null {
  return ctx.models?.[role] ?? ctx.model;
}

/** How the team thinks, as a flight records it: the orchestrator's model (it plans the flight), or `scripted`. */
export function modeOf(ctx: Pick<TeamContext, "model" | "models">): string {
  return modelOf(ctx, "orchestrator")?.name ?? "scripted";
}

/** The argv that runs a flight's tests: its own command through the shell, else the worker's default. */
export function testCommandOf(ctx: Pick<TeamContext, "testCommand">, place: Pick<FlightPlace, "testCommand">): string[] {
  return place.testCommand ? ["sh", "-c", place.testCommand] : ctx.testCommand;
}

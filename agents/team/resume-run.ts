// `quorum run resume RUN`: carries a halted, stopped or crashed run of the built-in team on from its
// journal, with the tools its role used, in the place it worked, thinking as configured.
import type { Db } from "../../db/client";
import type { Clock } from "../../server/clock";
import { fail } from "../../server/errors";
import { flightPlaceOf } from "../../server/flights/review";
import { loadRunEvents } from "../../server/journal/views/load";
import { foldRun } from "../../server/journal/views/resume-point";
import type { RunResult } from "../../server/journal/views/run-events";
import { readPrincipal } from "../../server/principals/list-principals";
import type { ModelClient } from "../model/model-client";
import { scriptedClient, type ScriptEntry } from "../model/scripted";
import { resumeRun } from "../resume";
import { DONE } from "../tools/done";
import { editFileTool } from "../tools/edit-file";
import { readFileTool } from "../tools/read-file";
import { runTestsTool } from "../tools/run-tests";
import type { Tool } from "../tools/tool";
import { coderScript, testerScript } from "./scripts";
import { ensureWorktree } from "./workspace";

/** Roles whose runs use only the runtime's own tools; the orchestrator's and reviewer's tools live in their steps. */
const SCRIPTS: Record<string, () => ScriptEntry[]> = { coder: coderScript, tester: testerScript };

export interface ResumeOptions {
  /** The configured model; null resumes a scripted run with its role's script. */
  model: ModelClient | null;
  testCommand: string[];
  /** Where the tools work; by default the task's worktree (or, for a goal, the flight's repository). */
  root?: string;
  clock: Clock;
}

export async function resumeTeamRun(db: Db, runId: string, options: ResumeOptions): Promise<RunResult> {
  const state = foldRun(await loadRunEvents(db, runId));
  if (!state.config || !state.agentId) throw fail.notFound("run", `no run ${runId}`);
  const { role } = await readPrincipal(db, state.agentId);
  const byName: Record<string, Tool> = { read_file: readFileTool, edit_file: editFileTool, run_tests: runTestsTool({ command: options.testCommand }) };
  const names = state.config.tools.map((t) => t.name).filter((n) => n !== DONE);
  const missing = names.filter((n) => !byName[n]);
  if (missing.length) {
    throw fail.invalid("run", `run ${runId} used ${missing.join(", ")}, which only its role's step provides; the team worker handles its work, this command cannot resume it`);
  }
  const script = SCRIPTS[role ?? ""];
  if (!options.model && !script) throw fail.invalid("run", `run ${runId} belongs to a ${role ?? "role-less"} agent with no script: set QUORUM_MODEL to resume it live`);
  const client = options.model ?? scriptedClient(script());
  return resumeRun(db, runId, { client, tools: names.map((n) => byName[n]), root: options.root ?? (await placeOf(db, state.taskId, runId)), clock: options.clock });
}

async function placeOf(db: Db, taskId: string | null, runId: string): Promise<string> {
  const place = taskId ? await flightPlaceOf(db, taskId) : null;
  if (!place) throw fail.invalid("run", `run ${runId} worked outside any flight: say where with --root DIR`);
  return place.isGoal ? place.repo : ensureWorktree(place.repo, taskId!);
}

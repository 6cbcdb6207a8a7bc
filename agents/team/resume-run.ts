// `quorum run resume RUN`: carries a halted, stopped or crashed run of the built-in team on from its
// journal, with the tools its role used, in the place it worked, thinking as configured.
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { fail } from "../../domain/errors";
import type { GitPlace } from "../../domain/host-git";
import { flightOfTask } from "../../domain/flights/place";
import { heldFlightWork, rejectionsOf } from "../../domain/flights/work";
import { loadRunEvents } from "../../domain/journal/load";
import { foldRun } from "../../domain/runs/resume-point";
import type { RunResult } from "../../domain/runs/run-events";
import { readPrincipal } from "../../domain/principals/list-principals";
import type { ModelClient } from "../model/model-client";
import { scriptedClient, type ScriptStep } from "../model/scripted";
import { resumeRun } from "../resume";
import { DONE } from "../tools/done";
import { editFileTool } from "../tools/edit-file";
import { readFileTool } from "../tools/read-file";
import { runTestsTool } from "../tools/run-tests";
import type { Tool } from "../tools/tool";
import { lastTestRunOf } from "./recording-run-tests";
import { submitCoderWork } from "./roles/coder";
import { coderScript, testerScript } from "./scripts";
import { ensureWorktree, suiteWorktree, worktreeGit } from "./workspace";
import { flightEnvironment } from "./environment";

/** Roles whose runs use only the runtime's own tools; the orchestrator's and reviewer's tools live in their steps. */
const SCRIPTS: Record<string, () => ScriptStep[]> = { coder: coderScript, tester: testerScript };

export interface ResumeOptions {
  /** The configured model; null resumes a scripted run with its role's script. */
  model: ModelClient | null;
  /** Each role's own model (QUORUM_MODEL_<ROLE>), over `model`: a run resumes on its role's. */
  models?: Partial<Record<string, ModelClient>>;
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
  const model = options.models?.[role ?? ""] ?? options.model;
  if (!model && !script) throw fail.invalid("run", `run ${runId} belongs to a ${role ?? "role-less"} agent with no script: set QUORUM_MODEL to resume it live`);
  const client = model ?? scriptedClient(script());
  const { root, git, environment } = options.root ? { root: options.root, git: undefined, environment: undefined } : await rootOf(db, state.taskId, runId);
  const result = await resumeRun(db, runId, { client, tools: names.map((n) => byName[n]), root, git, environment, clock: options.clock });
  // A coder's run finishes the job: its task is submitted with the diff and the test run, as the worker would.
  const work = role === "coder" && state.taskId && result.status === "done" ? await heldFlightWork(db, state.taskId) : null;
  if (work && result.status === "done") {
    await submitCoderWork(
      { db, clock: options.clock },
      { principal: await readPrincipal(db, state.agentId) },
      {
        work,
        worktree: root,
        result,
        tests: await lastTestRunOf(db, runId),
        round: (await rejectionsOf(db, state.taskId!)) + 1,
      },
    );
  }
  return result;
}

async function rootOf(db: Db, taskId: string | null, runId: string): Promise<{ root: string; git: GitPlace; environment: string | undefined }> {
  const found = taskId ? await flightOfTask(db, taskId) : null;
  if (!found) throw fail.invalid("run", `run ${runId} worked outside any flight: say where with --root DIR`);
  const root = found.isGoal ? suiteWorktree(found.place) : ensureWorktree(found.place, taskId!);
  return { root, git: worktreeGit(found.place, root), environment: await flightEnvironment(db, found.place) };
}

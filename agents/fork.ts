// Fork replay: "what if the model had answered otherwise from here?" A run is re-lived from its journal up to
// an event (the replay machinery, ./replay.ts, checks that part comes back identical), its files are rebuilt
// in a scratch folder (./fork-workspace.ts, then the recorded writes up to the fork point, re-applied with the
// real tools), and the real loop carries it on from there with another script or the live model — real tools,
// the sandboxed test command, a journal held in memory. Nothing is written to the hub's journal, its budgets
// or anyone's repository. The two journals are then compared (domain/runs/fork-report.ts).
import { isDeepStrictEqual } from "node:util";
import type { Db } from "../db/client";
import { fail } from "../domain/errors";
import { readPrincipal } from "../domain/principals/list-principals";
import type { ForkScript } from "../domain/runs/fork-input";
import type { JournalRecord } from "../domain/journal/load";
import { payloadOf } from "../domain/journal/payloads";
import { type ForkReport, forkReport, stepOf } from "../domain/runs/fork-report";
import { foldRun, type RunState } from "../domain/runs/resume-point";
import { type Observation, OPERATOR_KINDS, type RunResult } from "../domain/runs/run-events";
import type { ForkWorkspace } from "./fork-workspace";
import { driveRun, type RunJournal } from "./loop";
import { MODEL_ENV_HELP, MODEL_ROLES, type ModelRole, modelClientFromEnv } from "./model/from-env";
import { ModelError, type ModelClient } from "./model/model-client";
import { scriptedClient } from "./model/scripted";
import { appendInMemory, replayRun } from "./replay";
import { DONE } from "./tools/done";
import { editFileTool } from "./tools/edit-file";
import { listFilesTool } from "./tools/list-files";
import { readFileTool } from "./tools/read-file";
import { RUN_TESTS, runTestsTool } from "./tools/run-tests";
import type { Tool } from "./tools/tool";
import { createToolbox, type Toolbox } from "./tools/toolbox";

export interface ForkOptions {
  /** The id of the last recorded event to keep. */
  until: number;
  client: ModelClient;
  /** What carries the run on, in words (`a script of 3 responses`, the model's name). */
  continuedWith: string;
  workspace: ForkWorkspace;
  /** Takes the hub's secrets out of each tool result before the model or the report sees it (agents/run.ts's hubRedaction). */
  redact: (observation: Observation) => Promise<Observation>;
  progress?: (line: string) => void;
  signal?: AbortSignal;
}

/** The tools a fork can run on a scratch copy: those that act on files and the test command, nothing that reaches the hub. */
function forkTools(names: string[], testCommand: string[], runId: string): Tool[] {
  const known: Record<string, () => Tool> = {
    read_file: () => readFileTool,
    edit_file: () => editFileTool,
    list_files: () => listFilesTool,
    [RUN_TESTS]: () => runTestsTool({ command: testCommand }),
  };
  const unknown = names.filter((name) => !known[name]);
  if (unknown.length) {
    throw fail.conflict(
      "run",
      "not_forkable",
      `${runId} uses tools a fork cannot run on a scratch copy (${unknown.join(", ")}): only runs whose tools work on files and tests fork`,
    );
  }
  return names.map((name) => known[name]());
}

/** The events of one run as a fork reads them: the run's own steps, without the operators' requests. */
function runSteps(events: readonly JournalRecord[]): JournalRecord[] {
  const steps = events.filter((e) => !(OPERATOR_KINDS as readonly string[]).includes(e.kind));
  if (steps[0]?.kind !== "RunStarted") throw fail.conflict("run", "not_replayable", "a run's journal begins with RunStarted: there is nothing to fork");
  return steps;
}

/** Checks what can be checked before any work: the fork point, and that the run's tools can run on a copy. */
export function checkForkable(events: readonly JournalRecord[], until: number): { keptThrough: number; toolNames: string[] } {
  const recorded = runSteps(events);
  const runId = recorded[0].runId ?? "the run";
  const keptThrough = recorded.findIndex((e) => e.id === until);
  if (keptThrough < 0) throw fail.invalid("run", `event ${until} is not one of ${runId}'s steps: fork at one of its events (RunStarted to keep nothing)`);
  if (keptThrough === recorded.length - 1 && recorded[keptThrough].kind === "AgentFinished") {
    throw fail.invalid("run", `event ${until} ends ${runId}: there is nothing after it to carry on; fork at an earlier event`);
  }
  const toolNames = payloadOf(recorded[0], "RunStarted")
    .tools.map((t) => t.name)
    .filter((name) => name !== DONE);
  forkTools(toolNames, ["true"], runId);
  return { keptThrough, toolNames };
}

/** Re-applies each write the kept part recorded (a call that wrote a file and succeeded), with the real tool; says how many came out as recorded. */
async function reapplyWrites(kept: readonly JournalRecord[], toolbox: Toolbox, runId: string): Promise<{ writes: number; same: number }> {
  let writes = 0;
  let same = 0;
  for (const dispatched of kept.filter((e) => e.kind === "ToolDispatched")) {
    const call = payloadOf(dispatched, "ToolDispatched");
    if (!call.writes) continue;
    const returned = kept.find(
      (e) => e.kind === "ToolReturned" && e.turn === dispatched.turn && payloadOf(e, "ToolReturned").index === call.index && payloadOf(e, "ToolReturned").attempt === call.attempt,
    );
    const recorded = returned ? payloadOf(returned, "ToolReturned").observation : null;
    if (!recorded || recorded.is_error) continue;
    writes++;
    const prepared = toolbox.prepare({ id: call.callId, name: call.tool, arguments: call.args }, { turn: dispatched.turn ?? 0, index: call.index });
    if (!prepared.ok) continue;
    const observation = await toolbox.execute(prepared.prepared, { runId, agentId: dispatched.actor ?? "", turn: dispatched.turn ?? 0, index: call.index, attempt: call.attempt });
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(observation)), recorded)) same++;
  }
  return { writes, same };
}

/**
 * The continuation's journal, in memory. The world answers as it did: each turn gets the mail the recorded run
 * got at that turn (none past the recording's last), so only the model differs; no operator stops it and no
 * budget but the run's turns bounds it.
 */
function memoryContinuation(recorded: readonly JournalRecord[], events: JournalRecord[], onEvent: (event: JournalRecord, index: number) => void, signal?: AbortSignal): RunJournal {
  const mailAt = (turn: number) => {
    const called = recorded.find((e) => e.kind === "ModelCalled" && payloadOf(e, "ModelCalled").turn === turn);
    return called ? payloadOf(called, "ModelCalled").mail : [];
  };
  const push = (state: RunState, drafts: { kind: string; data: object; turn?: number }[]) => {
    const from = events.length;
    const next = appendInMemory(events, state, drafts);
    for (let i = from; i < events.length; i++) onEvent(events[i], i);
    return next;
  };
  return {
    append: async (state, drafts) => push(state, drafts),
    beginTurn: async (state, turn, describe) => push(state, [{ kind: "ModelCalled", turn, data: describe(mailAt(turn)) }]),
    stopRequested: async () => (signal?.aborted ? "the fork was cancelled" : null),
    exhaustedBudget: async () => null,
  };
}

export async function forkRun(events: readonly JournalRecord[], options: ForkOptions): Promise<ForkReport> {
  try {
    return await carryOn(events, options);
  } finally {
    options.workspace.dispose();
  }
}

async function carryOn(events: readonly JournalRecord[], options: ForkOptions): Promise<ForkReport> {
  const { keptThrough, toolNames } = checkForkable(events, options.until);
  const recorded = runSteps(events);
  const runId = recorded[0].runId ?? "";
  const say = options.progress ?? (() => {});
  const kept = recorded.slice(0, keptThrough + 1);
  say(`re-living ${kept.length} recorded events from the journal`);
  const prefix = await replayRun(kept);
  say(prefix.identical ? "the kept part replays identically" : "the kept part does not replay identically (see the first divergence)");
  const toolbox = createToolbox(forkTools(toolNames, options.workspace.testCommand, runId), { root: options.workspace.root, redact: options.redact });
  const { writes, same } = await reapplyWrites(kept, toolbox, runId);
  const rebuilt =
    writes === 0
      ? options.workspace.described
      : `${options.workspace.described}, then the ${writes} recorded write${writes === 1 ? "" : "s"} before the fork point re-applied${same === writes ? "" : ` (${writes - same} did not come out as recorded)`}`;
  say(`files: ${rebuilt}`);
  say(`carrying the run on with ${options.continuedWith}`);
  const forked: JournalRecord[] = kept.map((e) => ({ ...e }));
  const journal = memoryContinuation(recorded, forked, (event, index) => say(`${event.turn ? `turn ${event.turn}: ` : ""}${stepOf(event, index).what}`), options.signal);
  let result: RunResult | null = null;
  try {
    result = await driveRun(foldRun(kept), { client: options.client, toolbox, journal, signal: options.signal });
  } catch (error) {
    // A script that runs out, or a model that fails for good: the fork ends there, as the run would have.
    if (!(error instanceof ModelError)) throw error;
    say(`the continuation stopped: ${error.message}`);
  }
  return forkReport({
    runId,
    original: recorded,
    fork: forked,
    keptThrough,
    prefixIdentical: prefix.identical,
    workspace: rebuilt,
    continuedWith: options.continuedWith,
    forkResult: result,
  });
}

/** What carries a fork on: the script it was given, or the model configured for the run's role (a team member's own, else the orchestrator's). */
export async function forkClient(
  db: Db,
  events: readonly JournalRecord[],
  input: { script?: ForkScript; live?: true },
  modelVariables: Readonly<Record<string, string | undefined>>,
): Promise<{ client: ModelClient; continuedWith: string }> {
  if (input.script) return { client: scriptedClient(input.script), continuedWith: `a script of ${input.script.length} response${input.script.length === 1 ? "" : "s"}` };
  const actor = events.find((e) => e.kind === "RunStarted")?.actor;
  const role = actor ? (await readPrincipal(db, actor)).role : null;
  const client = modelClientFromEnv(modelVariables, undefined, (MODEL_ROLES as readonly string[]).includes(role ?? "") ? (role as ModelRole) : undefined);
  if (!client) throw fail.conflict("run", "no_model", `no model is configured to carry the run on live: ${MODEL_ENV_HELP}`);
  return { client, continuedWith: `the live model ${client.name}` };
}

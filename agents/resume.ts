// Resumes a run from its journal alone: the fold says where it stands, the loop carries on from there.
// Works the same after a crash (SIGKILL anywhere), a halt (once the budget is topped up) or a stop.
import type { Db } from "../db/client";
import { fail } from "../domain/errors";
import { loadRunEvents } from "../domain/journal/load";
import { foldRun } from "../domain/runs/resume-point";
import type { RunResult } from "../domain/runs/run-events";
import { driveRun } from "./loop";
import { portsFor, type RunEnvironment } from "./run";
import { runTracer, withinDrive } from "./run-tracing";
import { DONE } from "./tools/done";

export async function resumeRun(db: Db, runId: string, env: RunEnvironment): Promise<RunResult> {
  const state = foldRun(await loadRunEvents(db, runId));
  if (!state.config) throw fail.notFound("run", `no run ${runId}`);
  const ports = portsFor(db, env);
  const recorded = state.config.tools
    .map((t) => t.name)
    .filter((n) => n !== DONE)
    .sort()
    .join(",");
  const offered = ports.toolbox.specs
    .map((t) => t.name)
    .sort()
    .join(",");
  if (recorded !== offered) throw fail.invalid("run", `run ${runId} was started with the tools [${recorded}]; resume it with the same ones, not [${offered}]`);
  // A stateful client (the scripted one) skips what the journal already holds.
  env.client.resumeAfter?.(state.modelCalls);
  const trace = await runTracer()?.begin(db, { runId, agentId: state.agentId!, taskId: state.taskId, client: env.client, traceId: state.config.traceId });
  return withinDrive(trace, () => driveRun(state, { ...ports, trace }));
}

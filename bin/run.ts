// `quorum run resume RUN [--root DIR]` and `quorum run stop RUN --reason TEXT`: an operator's hands on a run.
import type { Db } from "../db/client";
import { modelClientsFromEnv } from "../agents/model/from-env";
import { resumeTeamRun } from "../agents/team/resume-run";
import { DEMO_TEST_COMMAND } from "../agents/team/worker";
import { systemClock } from "../domain/clock";
import { quorumVariables, testCommandSetting } from "../domain/config";
import { requestStop, requestStopInput } from "../domain/runs/request-stop";
import { describeResult } from "./replay";
import { traceRunsOfThisProcess } from "./tracing";

export async function resumeCommand(db: Db, runId: string, root: string | undefined, print: (line: string) => void = console.log): Promise<number> {
  const tracing = await traceRunsOfThisProcess("cli");
  const result = await resumeTeamRun(db, runId, {
    model: null,
    models: modelClientsFromEnv(quorumVariables()) ?? undefined,
    testCommand: testCommandSetting() ?? DEMO_TEST_COMMAND,
    root,
    clock: systemClock,
  }).finally(() => tracing?.shutdown());
  print(`run ${runId}: ${describeResult(result)}`);
  return result.status === "done" ? 0 : 1;
}

export async function stopCommand(db: Db, runId: string, reason: string | undefined, print: (line: string) => void = console.log): Promise<number> {
  const input = requestStopInput.safeParse({ reason: reason ?? "" });
  if (!input.success) {
    print("quorum: say why with --reason TEXT");
    return 1;
  }
  await requestStop(db, null, runId, input.data, systemClock);
  print(`run ${runId}: stop requested; it stops at its next turn boundary.`);
  return 0;
}

// A process that runs (or resumes) the scripted fix of the scratch repository, for the crash-resume
// test to SIGKILL. It loads and connects first, says "ready", then waits for its orders on stdin,
// so the test can keep one warm while another is being killed.
import { createInterface } from "node:readline";
import { eq } from "drizzle-orm";
import { connect } from "../../db/client";
import { principals } from "../../db/schema";
import { toPrincipal } from "../../domain/principal";
import type { ModelClient } from "../../agents/model/model-client";
import { scriptedClient } from "../../agents/model/scripted";
import { resumeRun } from "../../agents/resume";
import { startRun } from "../../agents/run";
import type { RunResult } from "../../domain/runs/run-events";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, scratchTools } from "../fixtures/runtime";

interface Orders {
  mode: "start" | "resume";
  runId: string;
  root: string;
  agentId: string;
  latencyMs: number;
}

/** A model takes time to answer; the pause gives a kill the chance to land mid-call. */
function withLatency(client: ModelClient, ms: number): ModelClient {
  return {
    ...client,
    resumeAfter: client.resumeAfter?.bind(client),
    complete: async (messages, tools) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return client.complete(messages, tools);
    },
  };
}

const connection = connect(process.env.DATABASE_URL!, { max: 2 });
await connection.sql`select 1`;
process.stdout.write("ready\n");
const line = await new Promise<string>((resolve) => createInterface({ input: process.stdin }).once("line", resolve));
const orders = JSON.parse(line) as Orders;
const client = withLatency(scriptedClient(FIX_SCRIPT), orders.latencyMs);
const env = { client, tools: scratchTools({ quick: true }), root: orders.root };
let result: RunResult;
if (orders.mode === "start") {
  const [row] = await connection.db.select().from(principals).where(eq(principals.id, orders.agentId));
  result = (await startRun(connection.db, { ...env, agent: toPrincipal(row), task: FIX_TASK, system: CODER_SYSTEM, runId: orders.runId })).result;
} else {
  result = await resumeRun(connection.db, orders.runId, env);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
await connection.close();
process.exit(0);

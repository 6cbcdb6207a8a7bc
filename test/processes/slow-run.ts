// A run whose one tool takes a while, for the browser test of the operator's Stop: prints the run id as
// soon as it starts, then the result once the run ends (stopped, if someone asked in time). The tool ends
// when someone asks the run to stop, or after <toolSeconds>: a busy machine's slow sign-in never beats it.
// Usage: tsx test/processes/slow-run.ts <agentId> <toolSeconds>   (finds Quorum's database like the CLI does)
// With OTEL_EXPORTER_OTLP_ENDPOINT set, its run is traced as `quorum run resume` traces one (bin/tracing.ts).
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { scriptedClient } from "../../agents/model/scripted";
import { startRun } from "../../agents/run";
import { defineTool } from "../../agents/tools/tool";
import { openDatabase } from "../../bin/database";
import { traceRunsOfThisProcess } from "../../bin/tracing";
import { and, eq } from "drizzle-orm";
import { connect } from "../../db/client";
import { events } from "../../db/schema";
import { readPrincipal } from "../../domain/principals/list-principals";

const [agentId, seconds] = process.argv.slice(2);
const tracing = await traceRunsOfThisProcess("cli");
const database = await openDatabase();
const connection = connect(database.url, { max: 2 });
const wait = defineTool({
  name: "wait",
  description: "waits, as slow work does",
  parameters: z.object({}),
  idempotent: true,
  execute: async () => {
    const started = Date.now();
    while (Date.now() - started < Number(seconds) * 1000 && !(await stopRequested())) await new Promise((resolve) => setTimeout(resolve, 200));
    return { waited: Math.round((Date.now() - started) / 1000) };
  },
});

async function stopRequested(): Promise<boolean> {
  const found = await connection.db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.runId, runId), eq(events.kind, "StopRequested")))
    .limit(1);
  return found.length > 0;
}
const script = [{ toolCalls: [{ name: "wait", arguments: {} }] }, { toolCalls: [{ name: "done", arguments: { summary: "waited", evidence: ["it waited"] } }] }];
const runId = `run_${randomBytes(8).toString("hex")}`;
process.stdout.write(`${runId}\n`);
const agent = await readPrincipal(connection.db, agentId);
const { result } = await startRun(connection.db, {
  agent,
  client: scriptedClient(script),
  tools: [wait],
  root: process.cwd(),
  task: "wait for a while",
  system: "You wait.",
  runId,
});
await tracing?.shutdown();
process.stdout.write(`${JSON.stringify(result)}\n`);
await connection.close();
await database.stop?.();
process.exit(0);

// Measures the MAST monitor on one large flight: `DATABASE_URL=… npx tsx bench/diagnosis.ts [runs]`. A flight
// whose goal holds `runs` runs of 28 events each (a coder's: six turns, a read, an edit, a test run of 2 KB of
// output) is diagnosed in memory, loaded and diagnosed as a scope, and swept by the monitor after one new
// event; each is set beside the raw read of the same rows in the same run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchRepo, DEMO_GOAL } from "../agents/demo/scratch-repo";
import { systemClock } from "../domain/clock";
import { diagnose, DIAGNOSED_KINDS } from "../domain/diagnosis/diagnose";
import { sweepDiagnosis } from "../domain/diagnosis/monitor";
import { diagnoseFlight } from "../domain/diagnosis/scope";
import { launchFlight } from "../domain/flights/launch";
import { appendEvent } from "../domain/journal/append";
import { loadFlightEvents } from "../domain/journal/load";
import { ensureHuman } from "../domain/principals/create-principal";
import { ensureTeam } from "../agents/team/team";
import { connect } from "../db/client";
import { median, withScratchDatabase } from "./lib";

const RUNS = Number(process.argv[2] ?? 200);

/** The median of `times` runs, in ms. */
async function medianOf(times: number, run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

await withScratchDatabase(async (url) => {
  const { db, sql, close } = connect(url);
  // The monitor's first pass starts at the journal's tail: everything below is new to it.
  await sweepDiagnosis(db, systemClock);
  const human = await ensureHuman(db, "bench", systemClock);
  await ensureTeam(db, systemClock);
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-bench-")));
  const { flight, goalTask } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: "scripted" }, systemClock);
  // A clean coder's run, 28 events, repeated: nothing for the detectors to find, everything for them to read.
  const turns = [1, 2, 3, 4, 5, 6].map(
    (t) => `('ModelCalled', ${t}, '{"turn": ${t}, "mail": [], "context": {"messages": ${2 * t}, "estimatedTokens": 900, "droppedSteps": 0}}'::jsonb),
      ('ModelResponded', ${t}, '{"text": "${"thinking ".repeat(30)}", "toolCalls": [], "usage": {"inputTokens": 900, "outputTokens": 40}}'::jsonb),
      ('BudgetDebited', ${t}, '{"amount": 940, "budgetIds": []}'::jsonb)`,
  );
  // Our own ids and literals only: the statement is built whole.
  await sql.unsafe(`
    insert into events (kind, actor, run_id, task_id, turn, data)
    select e.kind, '${human.id}'::uuid, 'run_' || r, '${goalTask.id}'::uuid, e.turn, e.data
    from generate_series(1, ${RUNS}) r,
    lateral (values
      ('RunStarted', 0, '{"task": "fix it", "tools": [{"name": "read_file"}, {"name": "edit_file"}, {"name": "run_tests"}, {"name": "done"}], "requestId": null}'::jsonb),
      ${turns.join(",\n")},
      ('ToolDispatched', 1, '{"index": 0, "callId": "a", "tool": "read_file", "args": {"path": "src/parse.js"}, "attempt": 1, "writes": null}'::jsonb),
      ('ToolReturned', 1, '{"index": 0, "callId": "a", "tool": "read_file", "attempt": 1, "observation": {"is_error": false, "result": {"content": "${"x".repeat(2000)}"}}}'::jsonb),
      ('ToolDispatched', 2, jsonb_build_object('index', 0, 'callId', 'b', 'tool', 'edit_file', 'args', '{}'::jsonb, 'attempt', 1, 'writes', 'src/file-' || r || '.js')),
      ('ToolReturned', 2, '{"index": 0, "callId": "b", "tool": "edit_file", "attempt": 1, "observation": {"is_error": false, "result": {"replaced": 1}}}'::jsonb),
      ('ToolDispatched', 3, '{"index": 0, "callId": "c", "tool": "run_tests", "args": {}, "attempt": 1, "writes": null}'::jsonb),
      ('ToolReturned', 3, '{"index": 0, "callId": "c", "tool": "run_tests", "attempt": 1, "observation": {"is_error": false, "result": {"exitCode": 0, "output": "${"ok ".repeat(700)}"}}}'::jsonb),
      ('AgentFinished', 6, '{"result": {"status": "done", "summary": "the suite passes", "evidence": ["exit code 0"], "turns": 6, "spent": 5640}}'::jsonb)
    ) as e(kind, turn, data)`);
  await sql`analyze events`;

  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from events where task_id = ${goalTask.id}`;
  const raw = await medianOf(9, () => sql`select id, t, kind, actor, run_id, task_id, turn, data from events where task_id = ${goalTask.id} order by id`);
  const loaded = await loadFlightEvents(db, flight.id, undefined, DIAGNOSED_KINDS);
  const load = await medianOf(9, () => loadFlightEvents(db, flight.id, undefined, DIAGNOSED_KINDS));
  const pure = await medianOf(9, async () => diagnose(loaded));
  const scope = await medianOf(9, () => diagnoseFlight(db, flight.id));
  // The monitor catches up with everything, then one new event of the flight: one pass re-diagnoses it.
  const first = performance.now();
  for (let pass = await sweepDiagnosis(db, systemClock); pass.read > 0; pass = await sweepDiagnosis(db, systemClock)) {
    // the next batch
  }
  const catchUp = performance.now() - first;
  const idle = await medianOf(9, () => sweepDiagnosis(db, systemClock));
  const pass = await medianOf(9, async () => {
    await appendEvent(db, { kind: "ReplyReasked", actor: null, taskId: goalTask.id, t: systemClock.now(), data: { awaiting: null } });
    await sweepDiagnosis(db, systemClock);
  });
  console.log(
    JSON.stringify(
      {
        flightEvents: n,
        diagnosedEvents: loaded.length,
        findings: diagnose(loaded).length,
        rawReadMs: +raw.toFixed(1),
        loadMs: +load.toFixed(1),
        diagnoseInMemoryMs: +pure.toFixed(1),
        diagnoseScopeMs: +scope.toFixed(1),
        monitorCatchUpMs: Math.round(catchUp),
        monitorIdlePassMs: +idle.toFixed(2),
        monitorPassAfterOneEventMs: +pass.toFixed(1),
        passOverRawRead: +(pass / raw).toFixed(2),
      },
      null,
      2,
    ),
  );
  await close();
});

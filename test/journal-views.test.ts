// The explorer's views over HTTP on real runs of the runtime (a cross-cutting suite: agents/ writes, app/ serves): timeline, replay, diagnosis, thread, audit and export.
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { scriptedClient } from "@/agents/model/scripted";
import { startRun } from "@/agents/run";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_SCRIPT_TOKENS, FIX_TASK, makeScratchRepo, scratchTools } from "@/test/fixtures/runtime";
import { systemClock } from "@/domain/clock";
import { createTask } from "@/domain/tasks/create";
import { call, makeAgent, makeHuman } from "@/test/helpers";
import { apiHandler } from "./api";
const exportRoute = apiHandler("GET", "/api/journal/export");
const diagnosisRoute = apiHandler("GET", "/api/diagnosis");
const replayRoute = apiHandler("GET", "/api/journal/runs/[id]/replay");
const runRoute = apiHandler("GET", "/api/journal/runs/[id]");
const auditRoute = apiHandler("GET", "/api/journal/tasks/[id]/audit");
const threadRoute = apiHandler("GET", "/api/journal/tasks/[id]/thread");

async function fixRun(options: { flaky?: boolean; taskId?: string } = {}) {
  const { runId } = await startRun(getDb(), {
    agent: await makeAgent(),
    client: scriptedClient(FIX_SCRIPT),
    tools: scratchTools({ flaky: options.flaky, quick: true }),
    root: makeScratchRepo(),
    task: FIX_TASK,
    system: CODER_SYSTEM,
    taskId: options.taskId ?? null,
  });
  return runId;
}

describe("the journal explorer's views", () => {
  it("shows a run's timeline, replays it identically and diagnoses its absorbed flake", async () => {
    const human = await makeHuman();
    const runId = await fixRun({ flaky: true });
    const as = { cookie: human.cookie, params: { id: runId } };

    const run = await call(runRoute, `/api/journal/runs/${runId}`, as);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ runId, status: "done", tokens: { total: FIX_SCRIPT_TOKENS } });
    expect(run.body.turns).toHaveLength(6);
    expect(run.body.turns.map((t: { debit: { amount: number } }) => t.debit.amount).reduce((a: number, b: number) => a + b, 0)).toBe(FIX_SCRIPT_TOKENS);
    const firstTest = run.body.turns[1].calls[0];
    expect(firstTest.tool).toBe("run_tests");
    expect(firstTest.attempts.map((a: { attempt: number; observation: { is_error: boolean } }) => [a.attempt, a.observation.is_error])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(run.body.turns[2].response.text).toMatch(/guard it/);

    const replay = await call(replayRoute, `/api/journal/runs/${runId}/replay`, as);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ identical: true, ended: "finished", result: { status: "done" } });
    expect(replay.body.replayed).toBe(replay.body.recorded);

    const diagnosis = await call(diagnosisRoute, `/api/diagnosis?run=${runId}`, { cookie: human.cookie });
    expect(diagnosis.status).toBe(200);
    expect(diagnosis.body).toMatchObject({ scope: "run", label: `run ${runId}`, truncated: false });
    expect(diagnosis.body.findings).toHaveLength(1);
    expect(diagnosis.body.findings[0]).toMatchObject({ mode: "FM-1.3", name: "Step repetition", category: 1, severity: "low", runIds: [runId] });
    expect(diagnosis.body.findings[0].eventIds.length).toBeGreaterThanOrEqual(2);
    // One scope exactly, each well formed: 400 with the issues otherwise, 404 for what is not there.
    for (const query of ["", `run=${runId}&task=1`, "since=yesterday", "flight=x", "bogus=1", "run=no%20spaces"]) {
      const bad = await call(diagnosisRoute, `/api/diagnosis?${query}`, { cookie: human.cookie });
      expect(bad.status, query).toBe(400);
      expect(bad.body.issues.length, query).toBeGreaterThan(0);
    }
    for (const query of ["run=run_nowhere", "flight=999", "task=999999", "task=00000000-0000-4000-8000-000000000000"]) {
      expect((await call(diagnosisRoute, `/api/diagnosis?${query}`, { cookie: human.cookie })).status, query).toBe(404);
    }
    expect((await call(diagnosisRoute, `/api/diagnosis?run=${runId}`, {})).status).toBe(401);

    for (const route of [runRoute, replayRoute]) {
      expect((await call(route, "/x", { cookie: human.cookie, params: { id: "run_nowhere" } })).status).toBe(404);
      const bad = await call(route, "/x", { cookie: human.cookie, params: { id: "no spaces/allowed" } });
      // A malformed id names nothing (docs/DESIGN.md), and the refusal says what a run id looks like.
      expect(bad.status).toBe(404);
      expect(bad.body.message).toContain("a run id is letters");
      expect((await call(route, "/x", { params: { id: runId } })).status).toBe(401);
    }
  });

  it("reads a task's thread and audit, and exports a run's and a task's events as JSON Lines", async () => {
    const db = getDb();
    const human = await makeHuman();
    const task = await createTask(db, human, { title: "Fix parse('')", acceptanceCriteria: "the suite passes" }, systemClock);
    const runId = await fixRun({ taskId: task.id });
    const as = { cookie: human.cookie, params: { id: task.id } };

    const thread = await call(threadRoute, `/api/journal/tasks/${task.id}/thread`, as);
    expect(thread.status).toBe(200);
    expect(thread.body.task).toMatchObject({ id: task.id, title: "Fix parse('')", status: "ready" });
    expect(thread.body.items.map((e: { type: string; kind?: string }) => `${e.type}:${e.kind ?? ""}`)).toEqual(["transition:TaskCreated", "run:RunStarted", "run:AgentFinished"]);

    const audit = await call(auditRoute, `/api/journal/tasks/${task.id}/audit`, as);
    expect(audit.status).toBe(200);
    expect(audit.body.submissions).toEqual([expect.objectContaining({ via: "run", summary: "parse('') returns []", evidence: ["node --test: 2 passed, 0 failed"] })]);
    expect(audit.body).toMatchObject({ verdicts: [], accepted: false });
    expect((await call(threadRoute, "/x", { cookie: human.cookie, params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    expect((await call(auditRoute, "/x", { cookie: human.cookie, params: { id: "42" } })).status).toBe(404);

    const runExport = await exportText(`/api/journal/export?run=${runId}`, human.cookie);
    expect(runExport.status).toBe(200);
    expect(runExport.disposition).toBe(`attachment; filename="${runId}.jsonl"`);
    const runLines = runExport.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(runLines).toHaveLength(28);
    expect(runLines.every((e) => e.runId === runId)).toBe(true);
    expect(runLines.map((e) => e.id)).toEqual([...runLines.map((e) => e.id)].sort((a, b) => a - b));
    expect(runLines[0]).toMatchObject({ kind: "RunStarted", taskId: task.id, data: { task: FIX_TASK } });

    const taskLines = (await exportText(`/api/journal/export?task=${task.id}`, human.cookie)).text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(taskLines).toHaveLength(29);
    expect(taskLines[0].kind).toBe("TaskCreated");

    expect((await call(exportRoute, `/api/journal/export?run=${runId}&task=${task.id}`, { cookie: human.cookie })).status).toBe(400);
    expect((await call(exportRoute, "/api/journal/export", { cookie: human.cookie })).status).toBe(400);
    expect((await call(exportRoute, "/api/journal/export?run=run_nowhere", { cookie: human.cookie })).status).toBe(404);
  });
});

/** The export is not JSON: read its body as text. */
async function exportText(path: string, cookie: string) {
  const response = await exportRoute(new Request(`http://localhost${path}`, { headers: { host: "localhost", cookie } }));
  return { status: response.status, disposition: response.headers.get("content-disposition"), text: await response.text() };
}

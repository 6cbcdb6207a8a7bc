// Resume finishes the job: an operator stops a coder's run mid-task (a pause: the coder keeps the task and
// says so), a human presses Resume (POST /api/runs/:id/resume), and the team's worker carries the same run on
// from its journal and submits the task; the flight goes green. The route refuses what cannot be resumed.
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const resumeRoute = apiRoute("/api/runs/[id]/resume");
import { getDb } from "../../db/client";
import { events, messages, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { requestStop } from "../../domain/runs/request-stop";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { flightTaskIds, launchScratchFlight, settledStatus, startWorker, suitePasses, until } from "../../test/fixtures/team";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { apiRoute } from "../../test/api";

const resume = (runId: string, who: { key?: string; cookie?: string }, body: unknown = {}) =>
  call(resumeRoute.POST, `/api/runs/${runId}/resume`, { body, params: { id: runId }, ...who });

const onTask = (taskId: string, kinds: string[]) =>
  getDb()
    .select()
    .from(events)
    .where(and(eq(events.taskId, taskId), inArray(events.kind, kinds)))
    .orderBy(asc(events.id));

describe("Resume", { timeout: 120_000 }, () => {
  it("a coder run stopped mid-task is resumed by a human: the same run carries on, submits, and the flight goes green", async () => {
    // The tests take two seconds, so the stop lands while run_tests runs and is honoured at the next boundary.
    const { db, repo, human, team, flight } = await launchScratchFlight({ testCommand: "sleep 2 && node --test" });
    const worker = startWorker({ releaseCoolDownMs: 0 });
    try {
      const [, taskId] = await until("the plan", async () => {
        const ids = await flightTaskIds(flight.id);
        return ids.length > 1 ? ids : null;
      });
      const coder = team.coders[0].principal;
      const started = await until("the coder's tests", async () =>
        (await onTask(taskId, ["ToolDispatched"])).find((e) => e.actor === coder.id && (e.data as { tool: string }).tool === "run_tests"),
      );
      const runId = started.runId!;
      // Resuming a running run is refused: there is nothing paused yet.
      expect(await resume(runId, { cookie: human.cookie })).toMatchObject({ status: 409, body: { error: "run_not_paused" } });
      await requestStop(db, human, runId, { reason: "let me look first" }, systemClock);
      await until("the pause", async () => (await onTask(taskId, ["RunStopped"])).length > 0);
      const [held] = await db.select().from(tasks).where(eq(tasks.id, taskId));
      expect(held).toMatchObject({ status: "in_progress", ownerId: coder.id });
      const said = await until("the coder to say it paused", async () =>
        (await db.select().from(messages).where(eq(messages.taskId, taskId))).find((m) => m.senderId === coder.id && m.body.includes("paused")),
      );
      expect(said.body).toContain(runId);

      // Agents may not resume it; the human may, once.
      const agent = await makeAgent();
      expect((await resume(runId, { key: agent.key })).status).toBe(403);
      expect(await resume(runId, { cookie: human.cookie }, { reason: "looks right, go on" })).toMatchObject({ status: 202, body: { runId, requested: true } });

      expect(await until("the flight to settle", () => settledStatus(flight.id))).toBe("green");
      expect(suitePasses(repo, flight.branch)).toBe(true);
      const runs = (await onTask(taskId, ["RunStarted"])).filter((e) => e.actor === coder.id);
      expect(runs.map((e) => e.runId)).toEqual([runId]);
      const ending = await onTask(taskId, ["AgentFinished", "TaskSubmitted"]);
      expect(ending.map((e) => e.kind)).toEqual(expect.arrayContaining(["AgentFinished", "TaskSubmitted"]));
      expect(ending.find((e) => e.kind === "AgentFinished")!.runId).toBe(runId);
      expect(await resume(runId, { cookie: human.cookie })).toMatchObject({ status: 409, body: { error: "run_not_paused" } });
    } finally {
      await worker.stop();
    }
  });

  it("refuses unknown runs and a halted run whose budget is still spent, naming the budget to top up", async () => {
    const human = await makeHuman();
    expect((await resume("run_nope", { cookie: human.cookie })).status).toBe(404);
    expect((await resume("run_x", {})).status).toBe(401);
    const agent = await makeAgent();
    const runId = `run_${randomBytes(8).toString("hex")}`;
    const db = getDb();
    // A spent budget of the agent's own: allowance 10, 10 debited.
    const [{ id: budgetId }] = await db.execute<{ id: string }>(sql`insert into budgets (owner_id, allowance) values (${agent.id}::uuid, 10) returning id`);
    await appendLooseEvent(db, { kind: "RunStarted", actor: agent.id, runId, turn: 0, data: { budgetIds: [budgetId], tools: [] } });
    await appendLooseEvent(db, { kind: "BudgetDebited", actor: agent.id, runId, turn: 1, data: { amount: 10, budgetIds: [budgetId] } });
    const halted = { status: "halted", budgetId, allowance: 10, budgetSpent: 10, turns: 1, spent: 10 };
    await appendLooseEvent(db, { kind: "BudgetExhausted", actor: agent.id, runId, turn: 1, data: { result: halted } });
    const refused = await resume(runId, { cookie: human.cookie });
    expect(refused).toMatchObject({ status: 409, body: { error: "budget_exhausted" } });
    expect(JSON.stringify(refused.body)).toContain(budgetId);
    expect(
      (
        await db
          .select()
          .from(events)
          .where(and(eq(events.runId, runId), eq(events.kind, "ResumeRequested")))
      ).length,
    ).toBe(0);
  });
});

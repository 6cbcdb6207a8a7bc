// Budgets allocated, not pooled: a flight's plan shares its allowance out to its tasks by the weights the
// orchestrator gave; each run on a task draws on that task's share, so the task that runs out halts alone
// while the other is done and reviewed; a human (never an agent) tops the share up, journalled, and the
// halted run goes on.
import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const allowanceRoute = apiRoute("/api/budgets/[id]/allowance");
import { getDb } from "../../db/client";
import { events, flightTasks, tasks } from "../../db/schema";
import { FLIGHT_RESERVE_SHARE } from "../../domain/budgets/task-shares";
import { manualClock } from "../../domain/clock";
import { launchFlight } from "../../domain/flights/launch";
import { readFlight } from "../../domain/flights/view";
import { loadRunEvents } from "../../domain/journal/load";
import { loadPrinciples } from "../../domain/memory/list-memory";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { fixtureRepo } from "../../test/fixtures/repos";
import type { ScriptEntry } from "../model/scripted";
import { scriptedClient } from "../model/scripted";
const resumeRoute = apiRoute("/api/runs/[id]/resume");
import { startRun } from "../run";
import type { TeamContext } from "./context";
import { codeNextTask } from "./roles/coder";
import { planNextFlight } from "./roles/orchestrator";
import { reviewNextTask } from "./roles/reviewer";
import { ensureTeam } from "./team";
import { apiRoute } from "../../test/api";

const clock = manualClock();
const call_ = (name: string, args: unknown) => ({ name, arguments: args });
const done = (summary: string): ScriptEntry => ({ toolCalls: [call_("done", { summary, evidence: [summary] })], usage: { inputTokens: 10, outputTokens: 5 } });
const ALLOWANCE = 10_000;

const orchestrator = (): ScriptEntry[] => [
  {
    toolCalls: [
      call_("create_task", { title: "Small: fix a.js", description: "a", acceptance_criteria: "a works", budget_weight: 1 }),
      call_("create_task", { title: "Big: fix b.js", description: "b", acceptance_criteria: "b works", budget_weight: 4 }),
    ],
    usage: { inputTokens: 400, outputTokens: 100 },
  },
  done("Planned two tasks."),
];
// Every coder reads a file at 3,000 tokens: more than the small task's share, well inside the big one's.
const coder = (): ScriptEntry[] => [{ toolCalls: [call_("read_file", { path: "a.js" })], usage: { inputTokens: 2_900, outputTokens: 100 } }, done("Read it.")];
const reviewer = (): ScriptEntry[] => [{ toolCalls: [call_("verdict", { verdict: "accept", reason: "fine" })], usage: { inputTokens: 100, outputTokens: 20 } }, done("Reviewed.")];

describe("a flight's budget, shared out by its plan", () => {
  it("halts only the task whose share ran out; a human tops it up, journalled, and its run goes on", async () => {
    const db = getDb();
    const repo = fixtureRepo("budgets", { "a.js": "export const a = 1;\n", "b.js": "export const b = 2;\n", "package.json": '{"scripts":{"test":"true"}}\n' });
    const human = await makeHuman();
    const team = await ensureTeam(db, clock, 2);
    const ctx: TeamContext = {
      db,
      clock,
      team,
      model: null,
      testCommand: ["true"],
      reviewDeadlineMs: 600_000,
      loadPrinciples: () => loadPrinciples(db),
      scripts: { orchestrator, coder, reviewer },
    };
    const { flight } = await launchFlight(db, human, { repo, goal: "Fix a and b", allowance: ALLOWANCE, mode: "scripted" }, clock);

    // The plan: the planning run drew on the flight's budget; what was left, less the reserve, went 1 : 4.
    expect(await planNextFlight(ctx)).toBe(true);
    const [planned] = await db.select().from(events).where(eq(events.kind, "FlightPlanned"));
    const data = planned.data as { shares: { taskId: string; budgetId: string; allowance: number }[]; reserve: number };
    const planning = 500 + 15;
    const toTasks = Math.floor((ALLOWANCE - planning) * (1 - FLIGHT_RESERVE_SHARE));
    expect(data.shares.map((s) => s.allowance)).toEqual([Math.floor(toTasks / 5), Math.floor((toTasks * 4) / 5)]);
    expect(data.reserve).toBe(ALLOWANCE - planning - data.shares[0].allowance - data.shares[1].allowance);
    const [small, big] = data.shares;
    // Recorded with the plan: each task names its budget, each share was journalled on its task, and the flight's view shows them.
    const members = await db.select().from(flightTasks).where(eq(flightTasks.flightId, flight.id));
    expect(members.map((m) => m.budgetId).sort()).toEqual([small.budgetId, big.budgetId].sort());
    const created = await db
      .select({ taskId: events.taskId, data: events.data })
      .from(events)
      .where(and(eq(events.kind, "BudgetCreated"), inArray(events.taskId, [small.taskId, big.taskId])))
      .orderBy(asc(events.id));
    expect(created.map((e) => e.taskId)).toEqual([small.taskId, big.taskId]);
    let view = await readFlight(db, flight.id);
    expect(view.budget).toMatchObject({ allowance: ALLOWANCE, spent: planning, promised: small.allowance + big.allowance, exhausted: false });
    expect(view.tasks.map((t) => t.budget)).toMatchObject([
      { id: small.budgetId, allowance: small.allowance, spent: 0, exhausted: false },
      { id: big.budgetId, allowance: big.allowance, spent: 0, exhausted: false },
    ]);

    // Two coders take the two tasks: the small one's run halts on its share, the big one's is done and submitted.
    expect(await codeNextTask(ctx, team.coders[0])).toBe(true);
    expect(await codeNextTask(ctx, team.coders[1])).toBe(true);
    const exhausted = await db.select().from(events).where(eq(events.kind, "BudgetExhausted"));
    expect(exhausted).toHaveLength(1);
    expect(exhausted[0].taskId).toBe(small.taskId);
    const haltedRun = exhausted[0].runId!;
    const statusOf = async (id: string) => (await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, id)))[0].status;
    expect(await statusOf(small.taskId)).toBe("in_progress");
    expect(await statusOf(big.taskId)).toBe("review");

    // The reviewer's run on the big task draws on that task's share and the flight's, in that order.
    expect(await reviewNextTask(ctx)).toBe(true);
    expect(await statusOf(big.taskId)).toBe("done");
    const debits = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "BudgetDebited"), eq(events.actor, team.reviewer.principal.id)));
    expect(debits.map((d) => (d.data as { budgetIds: string[] }).budgetIds)).toEqual([
      [big.budgetId, flight.budgetId],
      [big.budgetId, flight.budgetId],
    ]);
    view = await readFlight(db, flight.id);
    expect(view.tasks.map((t) => [t.budget?.spent, t.budget?.exhausted])).toEqual([
      [3_000, true],
      [3_000 + 15 + 120 + 15, false],
    ]);
    expect(view.budget?.exhausted).toBe(false);
    expect(view.tasks[0].budget?.byModel).toEqual([{ model: "scripted", tokens: 3_000 }]);

    // Resume is refused while the share is still spent, naming it.
    const resume = () => call(resumeRoute.POST, `/api/runs/${haltedRun}/resume`, { body: {}, params: { id: haltedRun }, cookie: human.cookie });
    expect(await resume()).toMatchObject({ status: 409, body: { error: "budget_exhausted" } });

    // Top-up: agents are refused; past what the flight can give is a 409; a human's is journalled on the task.
    const post = (body: unknown, who: { key?: string; cookie?: string }) =>
      call(allowanceRoute.POST, `/api/budgets/${small.budgetId}/allowance`, { body, params: { id: small.budgetId }, ...who });
    const agent = await makeAgent();
    expect((await post({ allowance: 5_000 }, { key: agent.key })).status).toBe(403);
    const room = ALLOWANCE - big.allowance;
    expect(await post({ allowance: room + 1 }, { cookie: human.cookie })).toMatchObject({ status: 409, body: { error: "over_allocated", available: room } });
    expect((await post({ allowance: small.allowance + 2_000 }, { cookie: human.cookie })).status).toBe(200);
    const changed = await db.select().from(events).where(eq(events.kind, "BudgetAllowanceChanged"));
    expect(changed.map((e) => [e.actor, e.taskId, e.data])).toEqual([
      [human.id, small.taskId, { budgetId: small.budgetId, allowance: small.allowance + 2_000, previous: small.allowance }],
    ]);
    expect((await readFlight(db, flight.id)).tasks[0].budget).toMatchObject({ allowance: small.allowance + 2_000, exhausted: false });

    // A human presses Resume; the coder's next step carries the halted run on from where it stopped, on the
    // same share, and submits the task.
    expect((await resume()).status).toBe(202);
    const [{ ownerId }] = await db.select({ ownerId: tasks.ownerId }).from(tasks).where(eq(tasks.id, small.taskId));
    expect(await codeNextTask(ctx, team.coders.find((c) => c.principal.id === ownerId)!)).toBe(true);
    expect(await statusOf(small.taskId)).toBe("review");
    expect((await loadRunEvents(db, haltedRun)).at(-1)?.kind).toBe("AgentFinished");
    const resumed = (await loadRunEvents(db, haltedRun)).filter((e) => e.kind === "BudgetDebited");
    expect(resumed.map((e) => (e.data as { budgetIds: string[] }).budgetIds)).toEqual([
      [small.budgetId, flight.budgetId],
      [small.budgetId, flight.budgetId],
    ]);
  });

  it("refuses a run that would draw on another task's share", async () => {
    const db = getDb();
    const repo = fixtureRepo("budgets-rule", { "a.js": "1\n", "package.json": '{"scripts":{"test":"true"}}\n' });
    const team = await ensureTeam(db, clock, 1);
    const { flight, goalTask } = await launchFlight(db, await makeHuman(), { repo, goal: "Fix a", mode: "scripted" }, clock);
    const run = (taskId: string | null) =>
      startRun(db, {
        agent: team.coders[0].principal,
        task: "t",
        system: "s",
        client: scriptedClient([done("x")]),
        tools: [],
        root: repo,
        budgetId: flight.budgetId,
        taskId,
        clock,
      });
    await expect(run(null)).rejects.toMatchObject({ status: 403 });
    await expect(run(goalTask.id)).resolves.toMatchObject({ result: { status: "done" } });
  });
});

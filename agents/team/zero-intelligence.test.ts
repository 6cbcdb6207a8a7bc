// The zero-intelligence 2×2: whatever the roles' wits, budgets hold and nothing integrates without an ACCEPT.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { contextOf } from "../../server/context";
import { events, flights, flightTasks } from "../../db/schema";
import { systemClock } from "../../server/clock";
import { loadBill } from "../../server/bill/bill";
import { suitePasses } from "../../test/fixtures/team";
import { makeHuman } from "../../test/helpers";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import type { ScriptEntry, ScriptStep } from "../model/scripted";
import type { ScriptInput } from "./context";
import { launchFlight } from "../../server/flights/launch";
import { coderScript, reviewerScript } from "./scripts";
import { ALLOWANCES, ensureTeam, membersOf } from "./team";
import { runTeamWorker } from "./worker";

type Script = (input: ScriptInput) => ScriptStep[];
const done = (summary: string): ScriptEntry => ({ toolCalls: [{ name: "done", arguments: { summary, evidence: [] } }] });

const coders: Record<string, Script> = { competent: coderScript, stub: () => [done("Done.")] };
const reviewers: Record<string, Script> = {
  rule: (input) => reviewerScript(input.diff ?? "", input.evidence ?? ""),
  "rubber-stamp": () => [{ toolCalls: [{ name: "verdict", arguments: { verdict: "accept", reason: "LGTM" } }] }, done("Approved.")],
};
const stubTester: Script = () => [done("Tested.")];

async function flyCell(coder: string, reviewer: string) {
  const db = getDb();
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-zi-")));
  const { flight } = await launchFlight(db, await makeHuman(), { goal: DEMO_GOAL, repo, mode: "scripted" }, systemClock);
  const controller = new AbortController();
  const worker = runTeamWorker(contextOf(getConnection()), {
    roles: ["orchestrator", "coder", "reviewer", "tester"],
    model: null,
    signal: controller.signal,
    log: () => {},
    scripts: { coder: coders[coder], reviewer: reviewers[reviewer], tester: stubTester },
  });
  const deadline = Date.now() + 90_000;
  let outcome = "timeout";
  while (Date.now() < deadline) {
    const [row] = await db.select().from(flights).where(eq(flights.id, flight.id));
    if (row.status === "green" || row.status === "red") outcome = row.status;
    if (outcome !== "timeout") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  controller.abort();
  await worker;
  const taskIds = (await db.select().from(flightTasks).where(eq(flightTasks.flightId, flight.id))).map((t) => t.taskId);
  const history = await db
    .select()
    .from(events)
    .where(and(inArray(events.taskId, taskIds), inArray(events.kind, ["TaskReviewed", "TaskIntegrated"])))
    .orderBy(asc(events.id));
  // Every integration is preceded by an ACCEPT on that task.
  const unaccepted = history.filter(
    (e, i) =>
      e.kind === "TaskIntegrated" && !history.slice(0, i).some((r) => r.kind === "TaskReviewed" && r.taskId === e.taskId && (r.data as { verdict: string }).verdict === "accept"),
  );
  return {
    outcome,
    integrated: history.some((e) => e.kind === "TaskIntegrated"),
    rejections: history.filter((e) => e.kind === "TaskReviewed" && (e.data as { verdict: string }).verdict === "reject").length,
    unaccepted: unaccepted.length,
    branchGreen: suitePasses(repo, flight.branch),
  };
}

it("holds budgets and the ACCEPT gate in every cell of competent/stub coder × rule/rubber-stamp reviewer", { timeout: 400_000 }, async () => {
  const team = await ensureTeam(getDb(), systemClock);
  const table: Record<string, Awaited<ReturnType<typeof flyCell>>> = {};
  for (const coder of Object.keys(coders)) for (const reviewer of Object.keys(reviewers)) table[`${coder} × ${reviewer}`] = await flyCell(coder, reviewer);
  console.log(JSON.stringify(table, null, 2));

  expect(table).toEqual({
    // The stub tester verifies nothing, so no flight is ever called green — but the flight's branch is right where the work was.
    "competent × rule": { outcome: "red", integrated: true, rejections: 0, unaccepted: 0, branchGreen: true },
    "competent × rubber-stamp": { outcome: "red", integrated: true, rejections: 0, unaccepted: 0, branchGreen: true },
    // The rule reviewer rejects empty work until the coder gives up, and the goal goes back to its human; nothing reaches the branch.
    "stub × rule": { outcome: "red", integrated: false, rejections: 3, unaccepted: 0, branchGreen: false },
    // A rubber stamp lets empty work in: integrated with an ACCEPT, and the branch stays red.
    "stub × rubber-stamp": { outcome: "red", integrated: true, rejections: 0, unaccepted: 0, branchGreen: false },
  });

  const bill = await loadBill(getDb());
  for (const member of membersOf(team)) {
    const spent = bill.agents.find((a) => a.agentId === member.principal.id)?.tokens ?? 0;
    expect(spent).toBeLessThanOrEqual(ALLOWANCES[member.role]);
  }
});

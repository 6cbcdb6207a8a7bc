// The failure drills `npm run chaos` runs in its "models" part: the first flight against a separate model
// server that fails in each way a real one does. For each case: the spend stayed within budget, nothing
// stayed in progress without a live run, the human was told once, and the recoverable case finished.
// Prints {"models": {...}} for the chaos tally.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, flights, messages, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { retryFlight } from "../../domain/flights/hand-back";
import { launchFlight } from "../../domain/flights/launch";
import { getSystemPrincipal } from "../../domain/principals/create-principal";
import { startModelServer, type Fault, type ModelServer } from "../../test/fixtures/model-server";
import { ackAndPost } from "../../test/fixtures/room";
import { flightTaskIds, settledStatus, startWorker, until } from "../../test/fixtures/team";
import { makeHuman } from "../../test/helpers";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { openAiCompatibleClient } from "../model/openai-compatible";
import { ALLOWANCES, ensureTeam } from "./team";

interface Drill {
  fault: Fault;
  /** How the first run ends. */
  outcome: string;
  /** The server recovers and the human retries: the flight must finish. */
  recovers?: boolean;
}

const DRILLS: Record<string, Drill> = {
  "500 then recovers": { fault: { mode: "status", status: 500, count: 3 }, outcome: "failed", recovers: true },
  "401": { fault: { mode: "status", status: 401 }, outcome: "failed" },
  "malformed JSON": { fault: { mode: "malformed" }, outcome: "failed" },
  "prose without tool calls": { fault: { mode: "prose" }, outcome: "inconclusive" },
  "stall past the timeout": { fault: { mode: "stall", ms: 5_000 }, outcome: "failed" },
  "invalid tool arguments": { fault: { mode: "bad-args" }, outcome: "out_of_turns" },
};

interface Tally {
  outcome: string;
  requests: number;
  spent: number;
  withinBudget: boolean;
  stuck: number;
  told: number;
  finished: boolean | null;
}
const tally: Record<string, Tally> = {};
afterAll(() => {
  console.log(JSON.stringify({ models: tally }));
});

/** The drill's model server lives exactly as long as the drill, failed or not. */
async function drill(name: string, spec: Drill): Promise<Tally> {
  const server = await startModelServer(spec.fault);
  try {
    return await drillAgainst(server, name, spec);
  } finally {
    await server.stop();
  }
}

async function drillAgainst(server: ModelServer, name: string, spec: Drill): Promise<Tally> {
  const db = getDb();
  // Each drill names its own model, so each has its own streak of failures (told once per streak).
  const model = openAiCompatibleClient({
    baseUrl: `${server.url}/v1`,
    model: `stand-in-${name.replace(/\W+/g, "-")}`,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1_000, timeoutMs: 400, sleep: async () => {}, random: () => 0.5 },
  });
  const human = await makeHuman();
  await ensureTeam(db, systemClock);
  await ackAndPost(human, "general", { body: `Drill: ${name}.` }, systemClock);
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-drill-")));
  const { flight, goalTask } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: model.name }, systemClock);
  const worker = startWorker({ model });
  const system = await getSystemPrincipal(db);
  const notices = async () =>
    (
      await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.senderId, system.id), eq(messages.toId, human.id), eq(messages.performative, "ERROR")))
    ).length;
  let finished: boolean | null = null;
  let outcome = "none";
  try {
    const released = await until(`${name}: the goal handed back`, async () =>
      (
        await db
          .select()
          .from(events)
          .where(and(eq(events.kind, "TaskReleased"), eq(events.taskId, goalTask.id)))
      ).at(0),
    );
    outcome = (released.data as { outcome: string }).outcome;
    await until(`${name}: the human told`, async () => (await notices()) > 0);
    if (spec.recovers) {
      await server.setFault({ mode: "ok" });
      await retryFlight(db, human, flight.id, { mode: "live" }, systemClock);
      finished = (await until(`${name}: the retried flight to settle`, () => settledStatus(flight.id), 60_000)) === "green";
    }
  } finally {
    await worker.stop();
  }
  const requests = (await server.usage()).requests;
  const ids = await flightTaskIds(flight.id);
  const runs = (
    await db
      .select({ runId: events.runId })
      .from(events)
      .where(and(eq(events.kind, "RunStarted"), inArray(events.taskId, ids)))
  ).map((r) => r.runId!);
  const debits = runs.length
    ? await db
        .select()
        .from(events)
        .where(and(eq(events.kind, "BudgetDebited"), inArray(events.runId, runs)))
    : [];
  const spent = debits.reduce((n, d) => n + (d.data as { amount: number }).amount, 0);
  const stuck = (
    await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(inArray(tasks.id, ids), eq(tasks.status, "in_progress")))
  ).length;
  const [row] = await db.select({ status: flights.status }).from(flights).where(eq(flights.id, flight.id));
  if (spec.recovers && row.status !== "green") finished = false;
  return {
    outcome,
    requests,
    spent,
    withinBudget: spent <= ALLOWANCES.orchestrator + ALLOWANCES.coder + ALLOWANCES.reviewer + ALLOWANCES.tester,
    stuck,
    told: await notices(),
    finished,
  };
}

describe("model failure drills", { timeout: 120_000 }, () => {
  for (const [name, spec] of Object.entries(DRILLS)) {
    it(`${name}: released at once, the human told once${spec.recovers ? ", finished once the server recovered" : ""}`, async () => {
      const result = await drill(name, spec);
      tally[name] = result;
      expect(result).toMatchObject({ outcome: spec.outcome, withinBudget: true, stuck: 0, told: 1, finished: spec.recovers ? true : null });
      // A permanent refusal is not retried; a transient failure is, within its tries.
      if (name === "401" || name === "malformed JSON") expect(result.requests).toBe(1);
      if (name === "stall past the timeout") expect(result.requests).toBe(3);
    });
  }
});

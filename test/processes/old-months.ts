// Work done in August and September of 2026, for the browser test of archived history: a human's task
// accepted in August, and in September a task worked by a finished scripted run, accepted too. Prints the
// ids as JSON. Usage: tsx test/processes/old-months.ts   (finds Quorum's database like the CLI does)
import { randomBytes } from "node:crypto";
import { scriptedClient } from "../../agents/model/scripted";
import { startRun } from "../../agents/run";
import { openDatabase } from "../../bin/database";
import { connect } from "../../db/client";
import { manualClock } from "../../domain/clock";
import { QuorumError } from "../../domain/errors";
import { createAgent, ensureHuman } from "../../domain/principals/create-principal";
import type { Principal } from "../../domain/principal";
import { claimTask } from "../../domain/tasks/claim";
import { createTask } from "../../domain/tasks/create";
import { reviewTask } from "../../domain/tasks/review";
import { submitTask } from "../../domain/tasks/submit";

const database = await openDatabase();
const connection = connect(database.url, { max: 2 });
const db = connection.db;
const suffix = randomBytes(3).toString("hex");
// Everyone arrives in August too, so the journal's order (by id) and its dates agree, as they do in life.
const arrival = manualClock(new Date("2026-08-11T09:00:00Z"));
const human = await ensureHuman(db, `archivist-${suffix}`, arrival);
const agent = await createAgent(db, null, { name: `elder-${suffix}`, role: "coder" }, arrival);

async function acceptedTask(title: string, clock: ReturnType<typeof manualClock>, work?: (taskId: string) => Promise<string>) {
  const task = await createTask(db, human, { title, acceptanceCriteria: "it is done" }, clock);
  let claimed = await claimTask(db, agent, task.id, clock);
  const runId = work ? await work(task.id) : null;
  for (let attempt = 1; ; attempt++) {
    try {
      await submitTask(db, agent, task.id, { fence: claimed.fence, summary: "done", evidence: `${title}: it works` }, clock);
      break;
    } catch (error) {
      // The hub's lease sweeper runs on today's clock, by which this back-dated lease lapsed long ago: when it
      // swept the task back to ready before the submit, the agent claims it again and submits.
      if (!(error instanceof QuorumError && error.code === "stale_fence") || attempt >= 3) throw error;
      claimed = await claimTask(db, agent, task.id, clock);
    }
  }
  await reviewTask(db, human, task.id, { verdict: "accept" }, clock);
  return { id: task.id, number: task.number, runId };
}

const august = await acceptedTask("Tidy the August ledger", manualClock(new Date("2026-08-12T10:00:00Z")));
const september = await acceptedTask("Close the September books", manualClock(new Date("2026-09-15T10:00:00Z")), async (taskId) => {
  const done = { toolCalls: [{ name: "done", arguments: { summary: "closed the books", evidence: ["the books balance"] } }] };
  const { runId } = await startRun(db, {
    agent: agent as Principal,
    // A script of its own name: a back-dated finish must not pass for the scripted team's latest success
    // (the model's failure streak counts from it, and the archive refuses to change that).
    client: Object.assign(scriptedClient([done]), { name: "scripted:bookkeeper" }),
    tools: [],
    root: process.cwd(),
    task: "close the September books",
    system: "You keep books.",
    taskId,
    clock: manualClock(new Date("2026-09-15T10:05:00Z")),
  });
  return runId;
});
process.stdout.write(`${JSON.stringify({ humanId: human.id, humanName: human.name, agentId: agent.id, august, september })}\n`);
await connection.close();
await database.stop?.();
process.exit(0);

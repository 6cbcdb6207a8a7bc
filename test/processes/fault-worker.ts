// A worker process for domain/tasks/fault-injection.test.ts: claims tasks, writes their output item by item, submits.
// Usage: node --import tsx test/processes/fault-worker.ts <agentId> <items> (claim <taskId> | next)
// `claim` works the one named task; `next` loops on claim-next until nothing is ready for it.
// Prints one JSON line per step, so the test can SIGKILL it at a chosen point.
import { eq } from "drizzle-orm";
import { principals } from "../../db/schema";
import { connect } from "../../db/client";
import { systemClock } from "../../domain/clock";
import { toPrincipal } from "../../domain/principal";
import { appendOutput } from "../../domain/tasks/append-output";
import { claimTask } from "../../domain/tasks/claim";
import { claimNextTask } from "../../domain/tasks/claim-next";
import { submitTask } from "../../domain/tasks/submit";
import type { TaskView } from "../../domain/tasks/view";

const [agentId, total, mode, taskArg] = process.argv.slice(2);
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const connection = connect(process.env.DATABASE_URL!, { max: 1 });
const { db } = connection;
const [row] = await db.select().from(principals).where(eq(principals.id, agentId));
const agent = toPrincipal(row);
say({ ready: true });

async function work(task: TaskView): Promise<void> {
  say({ claimed: task.id, fence: task.fence, from: task.outputCount });
  // Resume from the items already written: item i is the (i+1)-th, whoever wrote it.
  for (let i = task.outputCount; i < Number(total); i++) {
    await appendOutput(db, agent, task.id, { fence: task.fence, items: [{ i }] }, systemClock);
    say({ wrote: i });
  }
  await submitTask(db, agent, task.id, { fence: task.fence, summary: `wrote ${total} items`, evidence: `items 0..${Number(total) - 1}` }, systemClock);
  say({ submitted: task.id });
}

if (mode === "next") {
  for (let task = await claimNextTask(db, agent, systemClock); task; task = await claimNextTask(db, agent, systemClock)) await work(task);
} else {
  await work(await claimTask(db, agent, taskArg, systemClock));
}
say({ idle: true });
await connection.close();

// Fault injection with real processes: workers SIGKILLed mid-task, leases expired, replacements finish the work.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, taskOutputs } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { makeAgent, makeHuman } from "../../test/helpers";
import { appendOutput } from "./append-output";
import { sweepExpiredLeases } from "./expire";
import { makeReadyTask, markPresent } from "../../test/fixtures/board";
import { readTaskView } from "./view";

const ROUNDS = 24;
const ITEMS = 12;
const PARALLEL = 6;
/** Replacement processes; each loops on claim-next, taking the tasks offered to it first. */
const REPLACEMENTS = 4;
const worker = fileURLToPath(new URL("../../test/processes/fault-worker.ts", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));

interface Run {
  lines: Record<string, unknown>[];
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs the worker; with `killAt`, SIGKILLs it `jitterMs` after the first line that matches, so the
 * kill lands before, inside or just after the next claim or write transaction.
 */
function runWorker(args: string[], killAt?: { on: (line: Record<string, unknown>) => boolean; jitterMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    // `node --import tsx` (not the tsx CLI, which forks): the pid we kill is the worker itself.
    const child = spawn(process.execPath, ["--import", "tsx", worker, ...args], { cwd: root, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    const lines: Record<string, unknown>[] = [];
    let buffer = "";
    let stderr = "";
    let armed = Boolean(killAt);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const line = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        if (armed && killAt!.on(line)) {
          armed = false;
          setTimeout(() => child.kill("SIGKILL"), killAt!.jitterMs);
        }
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL" && code !== 0) reject(new Error(`worker failed (${code}): ${stderr}`));
      else resolve({ lines, code, signal });
    });
  });
}

async function inBatches<T, R>(items: T[], size: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => run(item, i + j)))));
  return results;
}

describe("fault injection", () => {
  it(`survives ${ROUNDS} workers SIGKILLed at random points: every task completes, no item lost or duplicated`, async () => {
    const db = getDb();
    const lead = await makeHuman();
    const tasks = await Promise.all(Array.from({ length: ROUNDS }, (_, i) => makeReadyTask(lead, { title: `fault ${i}` })));
    const firsts = await Promise.all(tasks.map(() => makeAgent()));
    const replacements = await Promise.all(Array.from({ length: REPLACEMENTS }, () => makeAgent()));

    // Kill point k: before the claim (k = -1) or before writing item k; the jitter moves it into the transaction.
    const killPoints = tasks.map(() => Math.floor(Math.random() * (ITEMS + 1)) - 1);
    const first = await inBatches(tasks, PARALLEL, (task, i) => {
      const k = killPoints[i];
      const on = (line: Record<string, unknown>) => (k === -1 ? "ready" in line : k === 0 ? "claimed" in line : line.wrote === k - 1);
      return runWorker([firsts[i].id, String(ITEMS), "claim", task.id], { on, jitterMs: Math.random() * 4 });
    });
    const killed = first.filter((r) => r.signal === "SIGKILL").length;
    expect(killed).toBeGreaterThanOrEqual(20);

    const before = await Promise.all(tasks.map((t) => readTaskView(db, t.id)));
    for (const [i, task] of before.entries()) {
      // A kill overshoots its aim by the jitter plus the pipe's latency, so one aimed near the end may
      // land after the submit committed; the item count below shows such a task lost nothing.
      if (first[i].signal === "SIGKILL") expect(["ready", "in_progress", "review"]).toContain(task.status);
      else expect(task.status).toBe("review");
    }
    const stranded = before.filter((t) => t.status === "in_progress");

    // The leases run out (an injected clock, not a sleep); the sweeper returns the tasks and offers them.
    const later = manualClock(new Date(Date.now() + 31 * 60_000));
    await markPresent(later, ...replacements);
    const swept = await sweepExpiredLeases(db, later);
    expect(swept.expired.map((e) => e.taskId).sort()).toEqual(stranded.map((t) => t.id).sort());
    expect(swept.expired.every((e) => replacements.some((r) => r.id === e.offeredTo?.id))).toBe(true);

    const second = await inBatches(replacements, PARALLEL, (agent) => runWorker([agent.id, String(ITEMS), "next"]));
    const resumed = second.flatMap((r) => r.lines.filter((l) => "submitted" in l));
    expect(resumed).toHaveLength(before.filter((t) => t.status !== "review").length);
    // Scored offers spread the stranded tasks over every replacement (an offer counts as load).
    expect(new Set(swept.expired.map((e) => e.offeredTo?.id)).size).toBe(Math.min(REPLACEMENTS, swept.expired.length));

    let lost = 0;
    let duplicated = 0;
    let lateRefused = 0;
    for (const [i, task] of tasks.entries()) {
      const after = await readTaskView(db, task.id);
      expect(after.status).toBe("review");
      expect(after.outputCount).toBe(ITEMS);
      const items = await db.select().from(taskOutputs).where(eq(taskOutputs.taskId, task.id)).orderBy(asc(taskOutputs.seq));
      const written = items.map((row) => (row.item as { i: number }).i);
      lost += ITEMS - new Set(written).size;
      duplicated += written.length - new Set(written).size;
      expect(written).toEqual(Array.from({ length: ITEMS }, (_, n) => n));
      // The killed worker's late write, with the fence it held, is refused and changes nothing.
      const claims = await db
        .select()
        .from(events)
        .where(and(eq(events.taskId, task.id), eq(events.kind, "TaskClaimed"), eq(events.actor, firsts[i].id)));
      if (claims.length > 0 && first[i].signal === "SIGKILL") {
        const oldFence = (claims[0].data as { fence: number }).fence;
        // Killed after another worker took the task over, its fence is stale; killed after submitting it itself
        // (the fence still its own), the task is in review and takes no more output.
        const refusal = after.fence === oldFence ? "wrong_status" : "stale_fence";
        await expect(appendOutput(db, firsts[i], task.id, { fence: oldFence, items: [{ i: "late" }] }, manualClock())).rejects.toMatchObject({ code: refusal });
        lateRefused++;
        expect((await readTaskView(db, task.id)).outputCount).toBe(ITEMS);
      }
    }
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    console.log(
      `fault injection: ${ROUNDS} tasks, ${killed} kills (${killPoints.map((k) => (k < 0 ? "pre-claim" : k)).join(" ")}), ` +
        `${stranded.length} leases expired and swept, ${resumed.length} resumed by replacements, ` +
        `${lateRefused} late writes refused, ${lost} items lost, ${duplicated} duplicated`,
    );
  }, 240_000);
});

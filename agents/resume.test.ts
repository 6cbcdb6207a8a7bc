// Crash-resume with real processes: a scripted multi-turn run is SIGKILLed at random points (again
// and again) and resumed each time; every run must end with the result and the event kinds, in order,
// of a run that was never interrupted.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { events } from "../db/schema";
import { getDb } from "../db/client";
import { loadRunEvents } from "../domain/journal/load";
import { describeResumePoint, foldRun } from "../domain/runs/resume-point";
import type { RunResult, ToolReturnedData } from "../domain/runs/run-events";
import { makeAgent } from "../test/helpers";
import { scriptedClient } from "./model/scripted";
import { resumeRun } from "./resume";
import { startRun } from "./run";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";
import { defineTool } from "./tools/tool";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const KILLS_PER_RUN = 5;
/** A child may outrun its kill and finish first; more runs are flown until the tally is reached (`npm run chaos` asks for more). */
const MIN_KILLS = Number(process.env.CRASH_RESUME_KILLS ?? 10);
const MAX_RUNS = 2 * Math.ceil(MIN_KILLS / KILLS_PER_RUN) + 2;

interface Child {
  proc: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  result: Promise<RunResult | null>;
}

function spawnChild(): Child {
  // One node process with tsx's loader (the tsx CLI would be a wrapper whose child outlives its SIGKILL).
  const proc = spawn(process.execPath, ["--import", "tsx", here("../test/processes/crash-child.ts")], { cwd: here(".."), env: process.env, stdio: ["pipe", "pipe", "pipe"] });
  const lines = createInterface({ input: proc.stdout });
  let stderr = "";
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const ready = new Promise<void>((resolve, reject) => {
    lines.once("line", (line) => (line === "ready" ? resolve() : reject(new Error(`unexpected: ${line}`))));
    proc.once("exit", () => reject(new Error(`the child died before it was ready: ${stderr}`)));
  });
  ready.catch(() => {});
  const result = new Promise<RunResult | null>((resolve, reject) => {
    let last: string | null = null;
    lines.on("line", (line) => (last = line));
    proc.once("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(null);
      else if (code === 0 && last && last !== "ready") resolve(JSON.parse(last));
      else reject(new Error(`the child failed (exit ${code}): ${stderr}`));
    });
  });
  result.catch(() => {});
  return { proc, ready, result };
}

const spares: Child[] = [];
/** A warm child (loaded and connected); the next one starts warming at once. */
async function takeChild(): Promise<Child> {
  const child = spares.shift() ?? spawnChild();
  spares.push(spawnChild());
  await child.ready;
  return child;
}

afterAll(() => {
  for (const spare of spares) spare.proc.kill("SIGKILL");
});

async function countEvents(runId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(events)
    .where(eq(events.runId, runId));
  return row.n;
}

/** `count` distinct event counts in [1, total − 1], ascending: where the journal will be when each kill comes. */
function killPoints(count: number, total: number): number[] {
  const points = new Set<number>();
  while (points.size < Math.min(count, total - 1)) points.add(1 + Math.floor(Math.random() * (total - 1)));
  return [...points].sort((a, b) => a - b);
}

describe("crash and resume", () => {
  it(`ends every run SIGKILLed at ${KILLS_PER_RUN} random points exactly as an uninterrupted run`, { timeout: 180_000 * Math.max(1, MIN_KILLS / 10) }, async () => {
    const tools = scratchTools({ quick: true });
    const reference = await startRun(getDb(), {
      agent: await makeAgent(),
      client: scriptedClient(FIX_SCRIPT),
      tools,
      root: makeScratchRepo(),
      task: FIX_TASK,
      system: CODER_SYSTEM,
    });
    const referenceKinds = (await loadRunEvents(getDb(), reference.runId)).map((e) => e.kind);
    const total = referenceKinds.length;
    const tally: { run: number; killedAfter: number; at: string }[] = [];
    let late = 0;
    let runs = 0;
    let resumes = 0;
    let identical = 0;

    for (let r = 0; tally.length < MIN_KILLS && r < MAX_RUNS; r++) {
      runs++;
      const agent = await makeAgent();
      const orders = { runId: `run_crash_${r}_${Date.now()}`, root: makeScratchRepo(), agentId: agent.id, latencyMs: 20 };
      const targets = killPoints(KILLS_PER_RUN, total);
      let mode: "start" | "resume" = "start";
      let result: RunResult | null = null;
      while (!result) {
        const child = await takeChild();
        child.proc.stdin.write(`${JSON.stringify({ ...orders, mode })}\n`);
        if (mode === "resume") resumes++;
        mode = "resume";
        const exited = child.result.then((value) => ({ value }));
        const before = await countEvents(orders.runId);
        while (targets.length && targets[0] <= before) targets.shift();
        const target = targets.shift();
        if (target === undefined) {
          result = (await exited).value;
          expect(result, "the last resume must complete").not.toBeNull();
          break;
        }
        for (;;) {
          const settled = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(resolve, 2, null))]);
          if (settled) {
            result = settled.value;
            break;
          }
          if ((await countEvents(orders.runId)) >= target) {
            child.proc.kill("SIGKILL");
            await exited;
            const state = foldRun(await loadRunEvents(getDb(), orders.runId));
            // A kill that lands after the run's last event interrupts nothing: it is not counted.
            if (state.cursor.at === "finished") late++;
            else tally.push({ run: r, killedAfter: await countEvents(orders.runId), at: describeResumePoint(state) });
            break;
          }
        }
      }
      expect(result).toEqual(reference.result);
      expect((await loadRunEvents(getDb(), orders.runId)).map((e) => e.kind)).toEqual(referenceKinds);
      identical++;
    }
    const lines = tally.map((k) => `  run ${k.run}: killed after event ${k.killedAfter} of ${total} — ${k.at}`);
    // One line for `npm run chaos` to read.
    console.log(JSON.stringify({ crashResume: { runs, killedMidRun: tally.length, killedAfterEnd: late, resumes, identical } }));
    console.log(`crash-resume tally: ${tally.length} kills mid-run (and ${late} after a run had ended), every run resumed to the reference result:\n${lines.join("\n")}`);
    expect(tally.length).toBeGreaterThanOrEqual(MIN_KILLS);
  });

  it("re-runs an interrupted idempotent call, reports an interrupted side effect as unknown, and fences out the zombie", async () => {
    for (const idempotent of [true, false]) {
      const agent = await makeAgent();
      let release: () => void = () => {};
      const zombie = new Promise<void>((resolve) => (release = resolve));
      const calls: string[] = [];
      const deploy = (who: string) =>
        defineTool({
          name: "deploy",
          description: "deploys",
          parameters: z.object({}),
          idempotent,
          async execute() {
            calls.push(who);
            if (who === "first") await zombie;
            return { deployed: who };
          },
        });
      const script = [{ toolCalls: [{ name: "deploy" }] }, { toolCalls: [{ name: "done", arguments: { summary: "deployed", evidence: ["ok"] } }] }];
      const env = { root: makeScratchRepo(), task: "deploy", system: "s" };
      const runId = `run_interrupted_${idempotent}_${Date.now()}`;
      // The first process hangs inside the tool; as far as the journal knows, it died there.
      const first = startRun(getDb(), { ...env, agent, runId, client: scriptedClient(script), tools: [deploy("first")] });
      first.catch(() => {});
      await expect.poll(async () => (await loadRunEvents(getDb(), runId)).map((e) => e.kind).at(-1)).toBe("ToolDispatched");
      const result = await resumeRun(getDb(), runId, { ...env, client: scriptedClient(script), tools: [deploy("second")] });
      expect(result).toMatchObject({ status: "done", turns: 2 });
      const returned = (await loadRunEvents(getDb(), runId)).find((e) => e.kind === "ToolReturned")!.data as ToolReturnedData;
      if (idempotent) {
        expect(calls).toEqual(["first", "second"]);
        expect(returned.observation).toEqual({ is_error: false, result: { deployed: "second" } });
      } else {
        expect(calls).toEqual(["first"]);
        expect(returned.observation).toMatchObject({ is_error: true, reason: "the run was interrupted while deploy ran; whether it took effect is unknown" });
      }
      // The first process wakes up and tries to journal its result: the fence refuses it.
      release();
      await expect(first).rejects.toMatchObject({ code: "run_moved_on" });
      expect((await loadRunEvents(getDb(), runId)).filter((e) => e.kind === "ToolReturned")).toHaveLength(1);
    }
  });
});

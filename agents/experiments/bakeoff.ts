// Seed 003's bake-off: identical agents over a fixed corpus, handing work over by messages (arm M) or through
// Quorum's board with leases, fences and incremental output (arm B), while a supervisor SIGKILLs one run in
// twelve at a seeded point. Each agent is a real process (bin/bakeoff-worker.ts) signed in with its own key;
// a killed one is replaced by a new agent at once, and recovery goes through the server functions any agent
// calls (the lease sweeper returns a lapsed task to the board; a successor reads what the store or the rooms hold).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import type { Db } from "../../db/client";
import { systemClock } from "../../domain/clock";
import { inheritedEnvironment } from "../../domain/config";
import { EXPERIMENT_CATALOG, type ExperimentTable } from "../../domain/experiments/report";
import type { Principal } from "../../domain/principal";
import { createAgent, ensureHuman } from "../../domain/principals/create-principal";
import { postMessage } from "../../domain/rooms/post-message";
import { listMessages } from "../../domain/rooms/list-messages";
import { createRoom, listRooms } from "../../domain/rooms/rooms";
import { createTask } from "../../domain/tasks/create";
import { sweepExpiredLeases } from "../../domain/tasks/expire";
import { listOutput } from "../../domain/tasks/list-output";
import { readTaskView } from "../../domain/tasks/view";
import { type Arm, documentsText, type Result } from "./bakeoff-agent";
import { type CorpusTask, corpusOf, KILL_ONE_IN, killPlanOf, workMsOf } from "./bakeoff-corpus";
import { databaseOf, type Experiment, type ExperimentContext, seedParameter } from "./experiment";

export const bakeoffParameters = z.strictObject({
  tasks: z.coerce.number().int().min(2).max(2_000).default(48),
  seed: seedParameter,
  workers: z.coerce.number().int().min(1).max(16).default(6),
});
export type BakeoffParameters = z.infer<typeof bakeoffParameters>;

/** The scratch hub's lease (QUORUM_LEASE_SECONDS's floor): a killed run's task comes back after it. */
export const LEASE_SECONDS = 5;
/** How often the supervisor runs the lease sweeper (the app's runs every 10 s). */
const SWEEP_EVERY_MS = 250;
/** An arm whose agents, once started, show no progress for this long is over: what is unfinished then is lost. */
const QUIET_LIMIT_MS = 6 * LEASE_SECONDS * 1_000;

export interface ArmOutcome {
  arm: Arm;
  tasks: number;
  kills: number;
  recovered: number;
  lost: number;
  /** Results stored (B) or handed over (M) more than once for one document. */
  duplicated: number;
  /** Tasks nobody killed that did not finish (should be none). */
  unfinishedUnkilled: number;
  /** Median, over recovered killed tasks, of what their kill added to their time (ms); null without one. */
  addedMedianMs: number | null;
  reads: number;
  writes: number;
  seconds: number;
}

interface Worker {
  child: ChildProcess;
  counters: { reads: number; writes: number };
  exited: Promise<number | null>;
  stderr: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Flies one arm over the corpus; every process it starts has ended when it returns. */
export async function flyArm(ctx: ExperimentContext, arm: Arm, corpus: CorpusTask[], plan: Map<number, number>, workers: number): Promise<ArmOutcome> {
  const { server, url } = databaseOf(ctx);
  const { db } = server;
  const suffix = randomBytes(3).toString("hex");
  const lead = await ensureHuman(db, "bakeoff-lead", systemClock);
  const board = arm === "B" ? await dispatchToBoard(db, lead, corpus, suffix) : null;
  const scope = board?.parentId ?? (await dispatchToRooms(db, lead, corpus, suffix));
  const began = Date.now();
  const tookAt = new Map<number, number>();
  const finishedAt = new Map<number, number>();
  const killed = new Set<number>();
  const running = new Set<Worker>();
  const done: Worker[] = [];
  /** When an agent last said anything (null until the first has started: starting a process takes seconds on a busy machine). */
  let lastProgress: number | null = null;
  let failure: Error | null = null;
  let spawned = 0;

  const start = async (withPlan: boolean): Promise<Worker> => {
    const index = spawned++;
    const agent = await createAgent(db, null, { name: `bakeoff-${arm.toLowerCase()}-${suffix}-${index + 1}`, role: "worker" }, systemClock);
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(ctx.quorumFolder, "bin", "bakeoff-worker.ts"),
        arm,
        scope,
        String(Math.floor((index * corpus.length) / workers)),
        JSON.stringify(withPlan ? Object.fromEntries(plan) : {}),
      ],
      {
        cwd: ctx.quorumFolder,
        env: { ...inheritedEnvironment(), DATABASE_URL: url, QUORUM_KEY: agent.key, QUORUM_LEASE_SECONDS: String(LEASE_SECONDS) },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const worker: Worker = {
      child,
      counters: { reads: 0, writes: 0 },
      stderr: "",
      exited: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
    };
    running.add(worker);
    child.stderr!.on("data", (chunk: Buffer) => (worker.stderr += chunk.toString()));
    void worker.exited.then((code) => {
      running.delete(worker);
      done.push(worker);
      if (code !== 0 && child.signalCode !== "SIGKILL" && !failure) failure = new Error(`a ${arm} agent failed (exit ${code}): ${worker.stderr.trim().slice(-2_000)}`);
    });
    createInterface({ input: child.stdout! }).on("line", (text) => {
      const line = JSON.parse(text) as Record<string, number>;
      if (typeof line.reads === "number") worker.counters = { reads: line.reads, writes: line.writes };
      lastProgress = Date.now();
      if (line.took !== undefined && !tookAt.has(line.took)) tookAt.set(line.took, Date.now());
      if (line.finished !== undefined) finishedAt.set(line.finished, Date.now());
      if (line.checkpoint !== undefined) {
        if (killed.has(line.checkpoint)) child.stdin!.write("go\n");
        else {
          // The run dies here, mid-task, as a crash would take it: its replacement is a new agent.
          killed.add(line.checkpoint);
          child.kill("SIGKILL");
          const length = corpus[line.checkpoint - 1].documents.length;
          const where = line.k === length ? "after its handoff" : `before document ${line.k + 1} of ${length}`;
          ctx.progress(`  ${arm}: killed the run of task #${line.checkpoint} ${where}; a new agent starts`);
          void start(false).catch((error: Error) => (failure ??= error));
        }
      }
    });
    return worker;
  };

  const sweeper = arm === "B" ? setInterval(() => void sweepExpiredLeases(db, systemClock).catch(() => {}), SWEEP_EVERY_MS) : undefined;
  try {
    for (let i = 0; i < workers; i++) await start(true);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (failure) throw failure;
      if (ctx.signal?.aborted) throw new Error("interrupted");
      const allFinished = finishedAt.size === corpus.length;
      const quiet = lastProgress !== null && Date.now() - lastProgress > QUIET_LIMIT_MS;
      if (arm === "B" && (allFinished || quiet)) break;
      if (arm === "M" && (running.size === 0 || quiet)) break;
    }
  } finally {
    clearInterval(sweeper);
    for (const worker of running) worker.child.stdin!.write("stop\n");
    const ending = [...running].map((w) => w.exited);
    const late = setTimeout(() => {
      for (const worker of running) worker.child.kill("SIGKILL");
    }, 5_000);
    await Promise.all(ending);
    clearTimeout(late);
  }
  const seconds = (Date.now() - began) / 1000;
  const stored = board ? await storedOnBoard(db, board.tasks) : await handedOverInRooms(db, lead, scope);
  const complete = (task: CorpusTask) => {
    const names = stored.get(task.number) ?? [];
    return task.documents.every((d) => names.includes(d.name));
  };
  const duplicated = [...stored.values()].reduce((n, names) => n + names.length - new Set(names).size, 0);
  const overheads = corpus.filter((t) => !killed.has(t.number) && finishedAt.has(t.number)).map((t) => finishedAt.get(t.number)! - tookAt.get(t.number)! - workMsOf(t));
  const usual = median(overheads) ?? 0;
  const recovered = corpus.filter((t) => killed.has(t.number) && complete(t) && finishedAt.has(t.number));
  const counters = [...done, ...running].reduce((sum, w) => ({ reads: sum.reads + w.counters.reads, writes: sum.writes + w.counters.writes }), { reads: 0, writes: 0 });
  return {
    arm,
    tasks: corpus.length,
    kills: killed.size,
    recovered: recovered.length,
    lost: corpus.filter((t) => killed.has(t.number) && !complete(t)).length,
    duplicated,
    unfinishedUnkilled: corpus.filter((t) => !killed.has(t.number) && !complete(t)).length,
    addedMedianMs: median(recovered.map((t) => finishedAt.get(t.number)! - tookAt.get(t.number)! - workMsOf(t) - usual)),
    reads: counters.reads,
    writes: counters.writes,
    seconds,
  };
}

/** Arm B's dispatch: one task per batch on the board, under a parent of this run's (claim-next's scope), its documents in its description. */
async function dispatchToBoard(db: Db, lead: Principal, corpus: CorpusTask[], suffix: string): Promise<{ parentId: string; tasks: Map<number, string> }> {
  const criteria = "a digest for every document, stored as output";
  const parent = await createTask(db, lead, { title: `Bake-off ${suffix}, arm B`, acceptanceCriteria: criteria }, systemClock);
  const tasks = new Map<number, string>();
  for (const task of corpus) {
    const created = await createTask(
      db,
      lead,
      { title: `Bake-off task ${task.number}`, description: documentsText(task.documents), acceptanceCriteria: criteria, parentId: parent.id },
      systemClock,
    );
    tasks.set(task.number, created.id);
  }
  return { parentId: parent.id, tasks };
}

/** Arm M's dispatch: one room per batch, with the lead's REQUEST carrying its documents. */
async function dispatchToRooms(db: Db, lead: Principal, corpus: CorpusTask[], suffix: string): Promise<string> {
  const prefix = `bakeoff-m-${suffix}-`;
  for (const task of corpus) {
    const room = `${prefix}${String(task.number).padStart(4, "0")}`;
    await createRoom(db, lead, { name: room }, systemClock);
    await postMessage(
      db,
      lead,
      room,
      {
        body: `Task ${task.number}: derive the digest of each of these ${task.documents.length} documents.`,
        performative: "REQUEST",
        payload: { task: task.number, documents: task.documents },
      },
      systemClock,
    );
  }
  return prefix;
}

/** What the board holds at the end: each submitted task's stored result names, by task number. */
async function storedOnBoard(db: Db, tasks: Map<number, string>): Promise<Map<number, string[]>> {
  const byNumber = new Map<number, string[]>();
  for (const [number, id] of tasks) {
    const task = await readTaskView(db, id);
    if (task.status !== "review" && task.status !== "done") continue;
    const { items } = await listOutput(db, id, { limit: 1000 });
    byNumber.set(
      number,
      items.map((row) => (row.item as Result).name),
    );
  }
  return byNumber;
}

/** What the rooms hold at the end: every result handed over in a DONE, by task number. */
async function handedOverInRooms(db: Db, reader: Principal, prefix: string): Promise<Map<number, string[]>> {
  const byNumber = new Map<number, string[]>();
  for (const room of (await listRooms(db)).filter((r) => r.name.startsWith(prefix))) {
    const { items } = await listMessages(db, reader, room.name, { after: 0, limit: 500 });
    for (const done of items.filter((m) => m.performative === "DONE")) {
      const payload = done.payload as { task: number; results: Result[] };
      byNumber.set(payload.task, [...(byNumber.get(payload.task) ?? []), ...payload.results.map((r) => r.name)]);
    }
  }
  return byNumber;
}

function seconds(ms: number | null): string {
  return ms === null ? "—" : `${(ms / 1000).toFixed(1)} s`;
}

export function bakeoffTable(params: BakeoffParameters, corpus: CorpusTask[], plan: Map<number, number>, arms: ArmOutcome[]): ExperimentTable {
  const kills = [...plan.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([task, k]) => {
      const length = corpus[task - 1].documents.length;
      return `#${task} ${k === length ? "after its handoff" : `before document ${k + 1} of ${length}`}`;
    });
  return {
    title: "The bake-off: handoff by messages against leases, fences and incremental output (seed 003)",
    question: `Over the same ${params.tasks} tasks, with one run in ${KILL_ONE_IN} killed at the same seeded points in both arms, how much work survives, at what cost in time, reads and writes, when the agents coordinate through room messages (M) or through Quorum's board (B)?`,
    parameters: params,
    columns: ["arm", "tasks", "kills", "recovered", "lost", "duplicated", "added wall-clock (median)", "reads per task", "writes per task"],
    rows: arms.map((a) => [
      a.arm === "M" ? "M: handoff by messages" : "B: leases, fences, incremental output",
      String(a.tasks),
      String(a.kills),
      String(a.recovered),
      String(a.lost + a.unfinishedUnkilled),
      String(a.duplicated),
      seconds(a.addedMedianMs),
      (a.reads / a.tasks).toFixed(1),
      (a.writes / a.tasks).toFixed(1),
    ]),
    notes: [
      `Corpus: ${params.tasks} tasks of 6 to 14 documents each (seed ${params.seed}); deriving a document takes 20–60 ms of work, the same in both arms. ${params.workers} agents start in each arm; each is a process of its own (bin/bakeoff-worker.ts) signed in with its own key, running the same loop (agents/experiments/bakeoff-agent.ts) behind a different coordination layer.`,
      `Kills are real: the supervisor SIGKILLs the agent's process at the planned point of the planned run (${kills.join("; ")}); to land there every time, the agent pauses at that point and asks, so a rerun with the same seed kills the same runs at the same points. A new agent process (a new identity: the old one's memory is gone) starts at once in its place.`,
      `B: tasks on the board under a lease of ${LEASE_SECONDS} s (the scratch hub's QUORUM_LEASE_SECONDS, its floor), each result stored as output with \`from\` as it is derived, then submit. A killed run's task keeps its lease until it lapses; the lease sweeper (run every ${SWEEP_EVERY_MS} ms here) returns it to the board, claim-next hands it to a successor with a higher fence, and the successor reads the stored output and derives only what is missing.`,
      "M: each task is a room with the lead's REQUEST (its documents in the payload); an agent takes one by saying so (the relay's freshness gate refuses a second taker that had not read the first), keeps its results in memory and hands them over in a DONE with every result. A successor reads the rooms: a task someone took and never finished is someone's work in progress, since a message holds no lease to expire (taking it over after a silence would be a lease reinvented in prose); a kill after the handoff loses nothing.",
      "Recovered: a killed run's task ended with a result for every document; lost: it did not (in M, for good). Duplicated: results stored (B) or handed over (M) more than once for one document. Added wall-clock: how much longer a recovered task took from its first take to its handoff than its own work and the arm's usual overhead (the median of its unkilled tasks'); in B it is mostly the lease left to run.",
      "Reads and writes are the agents' calls to the hub, per task: B's reads are claim-next polls that found nothing and stored-output reads, its writes claims, output items, heartbeats and submits; M's reads are room listings and room reads, its writes cursor acks and posts (refused ones included). The lead's dispatch (one task or one REQUEST per task) is not counted.",
    ],
  };
}

export const bakeoffExperiment: Experiment<BakeoffParameters> = {
  name: "bakeoff",
  ...EXPERIMENT_CATALOG.bakeoff,
  parameters: bakeoffParameters,
  database: true,
  async run(ctx, params) {
    const corpus = corpusOf(params.tasks, params.seed);
    const plan = killPlanOf(corpus, params.seed);
    const arms: ArmOutcome[] = [];
    for (const arm of ["M", "B"] as const) {
      ctx.progress(`arm ${arm}: ${params.tasks} tasks, ${params.workers} agents, ${plan.size} planned kill(s)`);
      const outcome = await flyArm(ctx, arm, corpus, plan, params.workers);
      ctx.progress(`  ${arm}: ${outcome.recovered} of ${outcome.kills} killed runs recovered, ${outcome.lost} lost, in ${outcome.seconds.toFixed(1)} s`);
      arms.push(outcome);
    }
    return bakeoffTable(params, corpus, plan, arms);
  },
};

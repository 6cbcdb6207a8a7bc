// The team's worker: each hosted role loops on its predicates, woken by NOTIFY, never by a model.
import type { Clock } from "../../server/clock";
import type { ServerContext } from "../../server/context";
import { announceTeamStarted } from "../../server/flights/team";
import { touchPresence } from "../../server/principals/authenticate";
import { loadPrinciples } from "../../server/memory/list-memory";
import type { ModelClient } from "../model/model-client";
import { modeOf, type TeamContext } from "./context";
import { codeNextTask } from "./roles/coder";
import { chaseSilentReviewers } from "./roles/deadlines";
import { deliverGreenGoal } from "./roles/deliver";
import { integrateNextTask } from "./roles/integrator";
import { planNextFlight } from "./roles/orchestrator";
import { reviewNextTask } from "./roles/reviewer";
import { testNextIntegration } from "./roles/tester";
import { ensureTeam, type Role } from "./team";

type Step = (ctx: TeamContext) => Promise<boolean>;

/** What each role does, in order; each step does one unit of work and says whether it found any. */
const STEPS: Record<Role, Step[]> = {
  orchestrator: [planNextFlight, integrateNextTask, deliverGreenGoal, chaseSilentReviewers],
  coder: [codeNextTask],
  reviewer: [reviewNextTask],
  tester: [testNextIntegration],
};

/** Time-based predicates (deadlines) are re-checked this often even when nothing is notified. */
const IDLE_RECHECK_MS = 5_000;

export const DEMO_TEST_COMMAND = ["node", "--test"];

/** QUORUM_TEST_COMMAND (space-separated argv) overrides the workpiece's test command. */
export function testCommandFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const words = env.QUORUM_TEST_COMMAND?.trim().split(/\s+/).filter(Boolean);
  return words?.length ? words : DEMO_TEST_COMMAND;
}

/** The flights' default pause between a role's steps, so a person can watch each one land. */
export const DEFAULT_PACE_MS = 1_500;

/** QUORUM_PACE_MS: the pause between a role's steps (0 for none; tests set 0). */
export function paceFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.QUORUM_PACE_MS?.trim();
  if (!raw) return DEFAULT_PACE_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw new Error(`QUORUM_PACE_MS must be a whole number of milliseconds from 0 to 60000, not '${raw}'`);
  return ms;
}

/** Sleeps `ms`, or less if the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

export interface WorkerOptions {
  roles: readonly Role[];
  model: ModelClient | null;
  /** Overrides the server context's clock (tests). */
  clock?: Clock;
  testCommand?: string[];
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Per-role scripts that replace the defaults when no model is configured. */
  scripts?: TeamContext["scripts"];
  /** The pause after each step that did work (`quorum worker` passes QUORUM_PACE_MS, default 1500; 0 when absent). */
  paceMs?: number;
}

/** Runs one role until `signal` aborts: drain its steps, then sleep until the journal moves. */
async function roleLoop(role: Role, ctx: TeamContext, wakeups: { wait(): Promise<void> }, signal: AbortSignal, log: (line: string) => void, paceMs: number) {
  while (!signal.aborted) {
    // A worker is this agent's presence: the room shows it as present while the loop runs.
    await touchPresence(ctx.db, ctx.team[role].principal.id, ctx.clock.now()).catch(() => {});
    let worked = false;
    for (const step of STEPS[role]) {
      try {
        while (!signal.aborted && (await step(ctx))) {
          worked = true;
          await pause(paceMs, signal);
        }
      } catch (error) {
        log(`[${role}] ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (!worked) await wakeups.wait();
  }
}

export async function runTeamWorker(server: ServerContext, options: WorkerOptions): Promise<void> {
  const { db } = server;
  const clock = options.clock ?? server.clock;
  const log = options.log ?? ((line: string) => console.log(line));
  const signal = options.signal ?? new AbortController().signal;
  const team = await ensureTeam(db, clock);
  const ctx: TeamContext = {
    db,
    clock,
    team,
    model: options.model,
    testCommand: options.testCommand ?? testCommandFromEnv(),
    loadPrinciples: () => loadPrinciples(db),
    scripts: options.scripts,
  };
  let waiters: (() => void)[] = [];
  const wakeAll = () => {
    const ready = waiters;
    waiters = [];
    for (const wake of ready) wake();
  };
  const wakeups = {
    wait: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_RECHECK_MS);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
  const unsubscribe = await server.subscribe(wakeAll);
  signal.addEventListener("abort", wakeAll);
  await announceTeamStarted(db, options.roles, modeOf(ctx), clock);
  log(`Team worker hosting ${options.roles.join(", ")} (${modeOf(ctx)}).`);
  try {
    await Promise.all(options.roles.map((role) => roleLoop(role, ctx, wakeups, signal, log, options.paceMs ?? 0)));
  } finally {
    unsubscribe();
  }
}

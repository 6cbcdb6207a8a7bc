// The team's worker: each hosted role loops on its predicates, woken by NOTIFY, never by a model.
import type { Clock } from "../../domain/clock";
import type { ServerContext } from "../../domain/context";
import { announceTeamStarted } from "../../domain/flights/team-members";
import { goalHoldEveryMs, holdFlightGoals } from "../../domain/flights/goal-hold";
import { globalLeaseSeconds } from "../../domain/tasks/lease";
import { touchPresence } from "../../domain/principals/authenticate";
import { loadPrinciples } from "../../domain/memory/list-memory";
import type { ModelClient } from "../model/model-client";
import { modelOf, modeOf, type TeamContext } from "./context";
import { codeNextTask } from "./roles/coder";
import { chaseSilentReviewers, DEFAULT_REVIEW_DEADLINE_MS } from "./roles/deadlines";
import { takeUpRequestedChanges } from "./roles/changes";
import { deliverGreenGoal } from "./roles/deliver";
import { followPullRequest, openPullRequest } from "./roles/hand-off";
import { takeLabelledIssues } from "./roles/intake";
import { integrateNextTask } from "./roles/integrator";
import { planNextFlight } from "./roles/orchestrator";
import { replanHandedBack } from "./roles/replanner";
import { speak } from "./speak";
import { processLimitNotice, sandboxNotice } from "../tools/sandbox";
import { reviewNextTask } from "./roles/reviewer";
import { testNextIntegration } from "./roles/tester";
import { ensureTeam, type Member, membersOf, type Role } from "./team";

/** One unit of work for one member; it says whether it found any. */
type Step = (ctx: TeamContext, me: Member) => Promise<boolean>;

/** What each role does, in order (every coder runs the coder's steps, each on its own task). */
const STEPS: Record<Role, Step[]> = {
  orchestrator: [
    planNextFlight,
    integrateNextTask,
    replanHandedBack,
    takeUpRequestedChanges,
    deliverGreenGoal,
    openPullRequest,
    followPullRequest,
    takeLabelledIssues,
    chaseSilentReviewers,
  ],
  coder: [codeNextTask],
  reviewer: [reviewNextTask],
  tester: [testNextIntegration],
};

/** Time-based predicates (deadlines) are re-checked this often even when nothing is notified. */
const IDLE_RECHECK_MS = 5_000;

/** The workpiece's test command when none is configured (`quorum worker` passes QUORUM_TEST_COMMAND). */
export const DEMO_TEST_COMMAND = ["node", "--test"];

/** How long `quorum worker` waits, once stopped, for the steps in flight before it leaves them to its successor. */
export const STOP_GRACE_MS = 1_500;

/** Resolves `ms` after `signal` aborts. */
function afterAbort(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, ms).unref();
    if (signal.aborted) later();
    else signal.addEventListener("abort", later, { once: true });
  });
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
  /** The model every role thinks with unless `models` names its own; null: scripted. */
  model: ModelClient | null;
  /** Each role's own model (`quorum worker` passes QUORUM_MODEL_<ROLE>'s, one client per distinct model). */
  models?: Partial<Record<Role, ModelClient>>;
  /** Overrides the server context's clock (tests). */
  clock?: Clock;
  /** The workpiece's test command; DEMO_TEST_COMMAND when absent. */
  testCommand?: string[];
  /** How run_tests is made for a command (TeamContext.testTool); the sandboxed runner when absent. */
  testTool?: TeamContext["testTool"];
  /** How long a review may wait before the reviewer is re-asked (`quorum worker` passes QUORUM_REVIEW_DEADLINE_SECONDS); DEFAULT_REVIEW_DEADLINE_MS when absent. */
  reviewDeadlineMs?: number;
  /** How long a released subtask waits before the team takes it again (RELEASE_COOL_DOWN_MS by default; tests shorten it). */
  releaseCoolDownMs?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Per-role scripts that replace the defaults when no model is configured. */
  scripts?: TeamContext["scripts"];
  /** How many coders the team has (`quorum worker` passes QUORUM_CODERS, default 2; 1 when absent). */
  coders?: number;
  /** Once `signal` aborts, how long to wait for steps in flight before returning (`quorum worker`: STOP_GRACE_MS); all of them when absent. */
  stopGraceMs?: number;
  /** How long one drive of a run may take (`quorum worker` passes QUORUM_RUN_MAX_MINUTES); unbounded when absent. */
  runMaxMinutes?: number;
  /** The pause after each visible action, a tool call or a post (`quorum worker` passes QUORUM_PACE_MS, default 4000; 0 when absent). */
  paceMs?: number;
}

/**
 * While the orchestrator is hosted, the goals of its working flights stay held (domain/flights/goal-hold.ts):
 * checked on a timer of its own (goalHoldEveryMs), so a long step cannot starve it.
 */
function holdGoalsWhileWorking(ctx: TeamContext, signal: AbortSignal, log: (line: string) => void): Promise<void> {
  const every = goalHoldEveryMs(globalLeaseSeconds());
  return (async () => {
    while (!signal.aborted) {
      await holdFlightGoals(ctx.db, ctx.team.orchestrator.principal, ctx.clock).catch((error: unknown) =>
        log(`[orchestrator] could not renew its flights' goals: ${error instanceof Error ? error.message : String(error)}`),
      );
      await pause(every, signal);
    }
  })();
}

/** Runs one role until `signal` aborts: drain its steps, then sleep until the journal moves. */
async function memberLoop(me: Member, ctx: TeamContext, wakeups: { wait(): Promise<void> }, signal: AbortSignal, log: (line: string) => void) {
  while (!signal.aborted) {
    // A worker is this agent's presence: the room shows it as present while the loop runs.
    await touchPresence(ctx.db, me.principal.id, ctx.clock.now()).catch(() => {});
    let worked = false;
    for (const step of STEPS[me.role]) {
      try {
        while (!signal.aborted && (await step(ctx, me))) worked = true;
      } catch (error) {
        log(`[${me.principal.name}] ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (!worked) await wakeups.wait();
  }
}

/** "scripted", one model's name, or each role's when they differ. */
function describeModels(roles: readonly Role[], ctx: TeamContext): string {
  const names = roles.map((role) => modelOf(ctx, role)?.name ?? "scripted");
  if (new Set(names).size <= 1) return names[0] ?? modeOf(ctx);
  return roles.map((role, i) => `${role} on ${names[i]}`).join(", ");
}

export async function runTeamWorker(server: ServerContext, options: WorkerOptions): Promise<void> {
  const { db } = server;
  const clock = options.clock ?? server.clock;
  const log = options.log ?? ((line: string) => console.log(line));
  const signal = options.signal ?? new AbortController().signal;
  const team = await ensureTeam(db, clock, options.coders ?? 1);
  // Without its sandbox the team refuses to run agent code (or, allowed, runs it unsandboxed): said at once, here and in the room.
  const sandbox = sandboxNotice();
  if (sandbox) {
    log(`[team] ${sandbox.text}`);
    await speak(db, team.orchestrator.principal, { body: sandbox.text, performative: sandbox.ok ? "INFORM" : "ERROR" }, clock);
  }
  const unlimited = processLimitNotice();
  if (unlimited) log(`[team] ${unlimited}`);
  const ctx: TeamContext = {
    db,
    clock,
    team,
    model: options.model,
    models: options.models,
    testCommand: options.testCommand ?? DEMO_TEST_COMMAND,
    testTool: options.testTool,
    reviewDeadlineMs: options.reviewDeadlineMs ?? DEFAULT_REVIEW_DEADLINE_MS,
    releaseCoolDownMs: options.releaseCoolDownMs,
    runMaxMinutes: options.runMaxMinutes,
    loadPrinciples: () => loadPrinciples(db),
    scripts: options.scripts,
    pace: options.paceMs ? () => pause(options.paceMs ?? 0, signal) : undefined,
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
  const hosted = membersOf(team).filter((member) => options.roles.includes(member.role));
  // Each member's model, journalled with the start: the Agents page shows it beside the member.
  const models = Object.fromEntries(hosted.map((member) => [member.principal.name, modelOf(ctx, member.role)?.name ?? "scripted"]));
  await announceTeamStarted(db, options.roles, modeOf(ctx), clock, models);
  log(`Team worker hosting ${options.roles.join(", ")} (${describeModels(options.roles, ctx)}).`);
  try {
    const holding = options.roles.includes("orchestrator") ? [holdGoalsWhileWorking(ctx, signal, log)] : [];
    const loops = Promise.all([...hosted.map((member) => memberLoop(member, ctx, wakeups, signal, log)), ...holding]);
    // A step in flight (a model call, a test run) is not waited for past a short grace: every step is journalled
    // as it goes, so the member's next worker carries its run on from there (domain/runs/interrupted.ts).
    await (options.stopGraceMs === undefined ? loops : Promise.race([loops, afterAbort(signal, options.stopGraceMs)]));
  } finally {
    unsubscribe();
  }
}

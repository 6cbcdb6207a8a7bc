// The payloads the hot paths build in SQL (db/functions/*.sql, and the raw statements under domain/) are what
// payloads.ts says they are. The compiler checks every appendEvent; nothing checks a jsonb_build_object. So this
// file drives each path the SQL writes through the real server functions, reads every event of those kinds back,
// and checks each payload against its kind's type as the compiler reads it (test/fixtures/payload-shapes.ts), not
// against a second copy kept by hand: a key renamed on one side only fails here, named.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { asc, inArray } from "drizzle-orm";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { events, flights, flightTasks } from "../db/schema";
import { scriptedClient } from "../agents/model/scripted";
import { startRun } from "../agents/run";
import { defineTool } from "../agents/tools/tool";
import { createBudget } from "../domain/budgets/create";
import { manualClock } from "../domain/clock";
import { castBallot } from "../domain/decisions/cast-ballot";
import { openDecision, type OpenDecisionInput } from "../domain/decisions/open-decision";
import { resolveEscalation } from "../domain/decisions/resolve-escalation";
import { sweepDecisions } from "../domain/decisions/sweep-decisions";
import { sweepDiagnosis } from "../domain/diagnosis/monitor";
import { markReasked, nextSilentReview } from "../domain/flights/deadlines";
import { releaseSubtask, retryFlight } from "../domain/flights/hand-back";
import { EVENT_KINDS, type EventKind } from "../domain/journal/kinds";
import type { Principal } from "../domain/principal";
import { SESSION_COOKIE } from "../domain/principals/sign-in";
import { endSession } from "../domain/principals/sign-out";
import { rawClientOf } from "../domain/raw-sql";
import type { PostMessageInput, PostMessageOptions } from "../domain/rooms/post-message";
import { sweepStalledAgents } from "../domain/roster/stall";
import { appendOutput } from "../domain/tasks/append-output";
import { claimTask } from "../domain/tasks/claim";
import { claimNextTask } from "../domain/tasks/claim-next";
import { claimTogether } from "../domain/tasks/claim-together";
import { sweepExpiredLeases } from "../domain/tasks/expire";
import { heartbeat } from "../domain/tasks/heartbeat";
import { reviewTask } from "../domain/tasks/review";
import { submitTask } from "../domain/tasks/submit";
import { makeReadyTask } from "./fixtures/board";
import { mismatches, payloadShapes, type Shape } from "./fixtures/payload-shapes";
import { ackAll, freshRoom, tryPost } from "./fixtures/room";
import { makeAgent, makeHuman } from "./helpers";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MINUTE = 60_000;

/**
 * Kinds the SQL names that no scenario here writes, each with its reason. A kind listed here must still be named
 * by the SQL (the test says when an entry has outlived its reason).
 */
const EXEMPT: Partial<Record<EventKind, string>> = {
  // Nothing writes it any more (key issuance journals PrincipalCreated; rotation AgentKeyRotated): only old journals
  // hold it, and the SQL names it only in quorum_event_searchable.sql's list of kinds the search leaves out.
  AgentKeyIssued: "no writer left: only the search's list of unindexed kinds names it",
};

const isKind = (name: string): name is EventKind => (EVENT_KINDS as readonly string[]).includes(name);

/**
 * The kinds SQL text names, by the files that name them: every quoted kind in db/functions/*.sql (what the
 * functions write, and what their triggers and filters read), and in the domain modules that write the journal
 * with a raw statement (`insert into events`, quoted kinds being SQL: the TypeScript around them uses double quotes).
 */
function kindsInSql(): Map<EventKind, string[]> {
  const sources = readdirSync(join(ROOT, "db/functions"))
    .filter((file) => file.endsWith(".sql"))
    .map((file) => `db/functions/${file}`);
  const domain = readdirSync(join(ROOT, "domain"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => `domain/${file}`)
    .filter((file) => /insert\s+into\s+events\b/i.test(readFileSync(join(ROOT, file), "utf8")));
  const named = new Map<EventKind, string[]>();
  for (const file of [...sources, ...domain]) {
    for (const [, name] of readFileSync(join(ROOT, file), "utf8").matchAll(/'([A-Z][A-Za-z]+)'/g)) {
      if (!isKind(name)) continue;
      const files = named.get(name) ?? [];
      if (!files.includes(file)) files.push(file);
      named.set(name, files);
    }
  }
  return named;
}

const decision = (question: string, quorum: number, escalationTimeboxSeconds = 600): OpenDecisionInput => ({
  question,
  options: ["yes", "no"],
  defaultOption: "no",
  consequence: "the release waits",
  quorum,
  timeboxSeconds: 60,
  escalationTimeboxSeconds,
});

/**
 * One afternoon of a small team, touching every path that writes a kind the SQL names: posts (broadcast, direct,
 * mentions, a nudge, two at once, held in a focus window), refusals by the duplicate and freshness gates, acks,
 * every claim path (by id, claim-next, a batch, rework), a heartbeat, output, both submit paths, a stall, expiries,
 * every way a decision ends, a sign-out, a run out of budget, a flight's release and retry, and a finding of the MAST monitor.
 */
async function anAfternoon(): Promise<void> {
  const db = getDb();
  const clock = manualClock(new Date());
  await sweepDiagnosis(db, clock); // the monitor's first pass sets its watermark: it watches from here on

  const post = async (who: Principal, room: string, input: PostMessageInput | string, options?: PostMessageOptions) => {
    const outcome = await tryPost(who, room, input, clock, options);
    if (!outcome.ok) throw new Error(`${who.name}'s post was refused: ${JSON.stringify(outcome.body)}`);
    return outcome.message;
  };
  const refusal = async (who: Principal, room: string, body: string) => {
    const outcome = await tryPost(who, room, body, clock);
    if (outcome.ok) throw new Error(`${who.name}'s post "${body}" should have been refused`);
    return outcome.code;
  };

  const lead = await makeHuman(); // HumanSignedIn
  const visitor = await makeHuman();
  const [ada, bo, cy] = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);

  // The relay: MessageSent and MessageDelivered (quorum_post_message), GateRejected, CursorAdvanced.
  const room = await freshRoom(lead);
  await ackAll(ada, room, clock);
  await post(ada, room, "the parser is next");
  expect(await refusal(ada, room, "the parser is next")).toBe("duplicate");
  await post(lead, room, `@${bo.name} please look at the parser`);
  expect(await refusal(cy, room, "I will take the docs")).toBe("stale");
  await ackAll(bo, room, clock);
  await post(bo, room, { body: "on it", performative: "INFORM", to: ada.name });
  await Promise.all([post(lead, room, "first of two"), post(visitor, room, "second of two")]); // may go as one batch
  await post(lead, room, "the release is on the critical path", { nudge: true });

  // The board: every claim path (quorum_start_work), heartbeat, output, both submit paths, rework.
  const first = await makeReadyTask(lead, { title: "Parse blank input", leaseMinutes: 30 }, clock);
  const claimed = await claimTask(db, ada, first.id, clock);
  clock.advance(MINUTE);
  await heartbeat(db, ada, first.id, { fence: claimed.fence }, clock);
  await appendOutput(db, ada, first.id, { fence: claimed.fence, items: [{ step: 1 }, "two"] }, clock);
  await post(lead, room, "while you work: the schema changed"); // held in ada's window
  const second = await makeReadyTask(lead, { title: "Parse comments" }, clock);
  const next = await claimNextTask(db, ada, clock); // the window moves to it, its digest kept
  expect(next?.id).toBe(second.id);
  await submitTask(db, ada, second.id, { fence: next!.fence, summary: "done", evidence: "the suite passes" }, clock); // flushes the digest
  const third = await makeReadyTask(lead, { title: "Parse numbers", leaseMinutes: 30, targetTests: ["numbers > negative"] }, clock);
  const bos = await claimTask(db, bo, third.id, clock);
  // An empty window: one statement, which also builds the submission's tests (quorum_submission_tests).
  const ran = { format: "tap" as const, namesPasses: true, passed: ["numbers > positive"], failed: ["numbers > negative"], skipped: [], truncated: false };
  await submitTask(db, bo, third.id, { fence: bos.fence, summary: "done", evidence: "the suite passes", tests: ran }, clock);
  await reviewTask(db, lead, third.id, { verdict: "reject", reason: "cover negative numbers too" }, clock); // rework reopens bo's window
  const fourth = await makeReadyTask(lead, { title: "Parse strings", leaseMinutes: 30 }, clock);
  const together = await claimTogether(rawClientOf(db), [{ caller: cy, now: clock.now().toISOString() }]);
  expect(together[0]?.id).toBe(fourth.id);

  // Silent past half their leases: AgentStalled.
  clock.advance(16 * MINUTE);
  expect((await sweepStalledAgents(db, clock)).stalled.length).toBeGreaterThan(0);

  // Decisions: closed by quorum, escalated by a tie and by the timebox, resolved by a human, defaulted.
  const closed = await openDecision(db, ada, decision("Ship the parser?", 1), clock);
  await castBallot(db, bo, closed.id, { option: "yes", reasoning: "green" }, clock);
  const tied = await openDecision(db, ada, decision("Rename the module?", 2), clock);
  await castBallot(db, ada, tied.id, { option: "yes", reasoning: "clearer" }, clock);
  await castBallot(db, bo, tied.id, { option: "no", reasoning: "churn" }, clock);
  await resolveEscalation(db, lead, tied.id, { option: "no" }, clock);
  const resolved = await openDecision(db, ada, decision("Deploy on Friday?", 3), clock);
  await openDecision(db, ada, decision("Drop Node 18?", 3, 60), clock); // its humans time out too
  clock.advance(MINUTE);
  expect(await sweepDecisions(db, clock)).toMatchObject({ escalated: 2 });
  await resolveEscalation(db, lead, resolved.id, { option: "yes" }, clock);
  clock.advance(MINUTE);
  expect(await sweepDecisions(db, clock)).toMatchObject({ defaulted: 1 });

  // Past every lease: LeaseExpired (and the windows it closes).
  clock.advance(31 * MINUTE);
  expect((await sweepExpiredLeases(db, clock)).expired.length).toBeGreaterThan(0);

  // A sign-out: SessionEnded.
  await endSession(db, visitor, visitor.cookie.slice(`${SESSION_COOKIE}=`.length), clock);

  // A run past its budget: BudgetExhausted.
  const budget = await createBudget(db, lead, { ownerId: cy.id, allowance: 100 }, clock);
  const look = defineTool({ name: "look", description: "looks around", parameters: z.object({}), idempotent: true, execute: async () => ({ seen: "nothing" }) });
  const root = mkdtempSync(join(tmpdir(), "sql-payloads-"));
  try {
    const script = [
      { toolCalls: [{ name: "look", arguments: {} }], usage: { inputTokens: 150, outputTokens: 10 } },
      { toolCalls: [{ name: "done", arguments: { summary: "looked", evidence: ["nothing there"] } }] },
    ];
    const run = await startRun(db, { agent: cy, client: scriptedClient(script), tools: [look], root, task: "look", system: "you look", budgetId: budget.id, clock });
    expect(run.result.status).toBe("halted");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }

  // A flight whose reviewer never answered a direct REQUEST, re-asked by the deadline: the monitor's DiagnosisFound.
  const goal = await makeReadyTask(lead, { title: "Make the parser total" }, clock);
  const sub = await makeReadyTask(lead, { title: "Parse empty files", leaseMinutes: 30 }, clock);
  const [flight] = await db
    .insert(flights)
    .values({ goal: goal.title, repo: join(root, "never-cloned"), goalTaskId: goal.id, mode: "scripted", createdBy: lead.id })
    .returning();
  await db.insert(flightTasks).values({ taskId: sub.id, flightId: flight.id });
  const subClaim = await claimTask(db, ada, sub.id, clock);
  await submitTask(db, ada, sub.id, { fence: subClaim.fence, summary: "done", evidence: "the suite passes" }, clock);
  await post(ada, room, { body: "please review the empty-file fix", performative: "REQUEST", to: lead.name, taskId: sub.id });
  clock.advance(MINUTE);
  const silent = await nextSilentReview(db, clock.now());
  expect(silent?.task.id).toBe(sub.id);
  expect(await markReasked(db, ada, silent!, clock)).toBe(true);

  // What a flight's claim passes over (quorum_flight_cooling): a release (TaskReleased, its review tried again
  // after a cool-down), and a handed-back flight that its human retries (FlightRetried).
  const ending = { runId: null, outcome: "failed", reason: "the model timed out", model: "scripted", advice: "try again" };
  expect(await releaseSubtask(db, ada, sub.id, ending, clock)).toMatchObject({ taskId: sub.id });
  const redGoal = await makeReadyTask(lead, { title: "Make the lexer total" }, clock);
  const [red] = await db
    .insert(flights)
    .values({ goal: redGoal.title, repo: join(root, "never-cloned"), goalTaskId: redGoal.id, mode: "scripted", createdBy: lead.id, status: "red" })
    .returning();
  expect(await retryFlight(db, lead, red.id, { mode: "scripted" }, clock)).toMatchObject({ status: "planning" });
  for (let pass = 0; pass < 10 && (await sweepDiagnosis(db, clock)).read > 0; pass++);
}

/** The mismatches of every stored payload of `kinds`, grouped by kind, property and expectation, with the events that show each. */
async function payloadReport(shapes: Map<string, Shape>, kinds: EventKind[]): Promise<{ seen: Set<string>; report: string[] }> {
  const rows = await getDb().select({ id: events.id, kind: events.kind, data: events.data }).from(events).where(inArray(events.kind, kinds)).orderBy(asc(events.id));
  const grouped = new Map<string, { ids: number[]; got: string }>();
  for (const row of rows) {
    for (const found of mismatches(shapes.get(row.kind)!, row.data)) {
      const key = `${row.kind} ${found.path}: expected ${found.expected}`;
      const group = grouped.get(key) ?? { ids: [], got: found.got };
      group.ids.push(row.id);
      grouped.set(key, group);
    }
  }
  const report = [...grouped].map(([key, { ids, got }]) => {
    const shown = ids.length > 3 ? `${ids.slice(0, 3).join(", ")} and ${ids.length - 3} more` : ids.join(", ");
    return `${key}, got ${got} (event ${shown})`;
  });
  return { seen: new Set(rows.map((row) => row.kind)), report };
}

describe("payloads built in SQL", () => {
  let shapes: Map<string, Shape>;
  let named: Map<EventKind, string[]>;
  let seen: Set<string>;
  let report: string[];

  beforeAll(async () => {
    shapes = payloadShapes();
    named = kindsInSql();
    await anAfternoon();
    ({ seen, report } = await payloadReport(shapes, [...named.keys()]));
  });

  it("reads a shape for every kind from the types", () => {
    expect([...shapes.keys()].sort()).toEqual([...EVENT_KINDS].sort());
    // The hot paths' own kinds are among those the SQL names (a sanity check of the scan).
    expect([...named.keys()]).toEqual(expect.arrayContaining(["MessageSent", "MessageDelivered", "GateRejected", "TaskClaimed", "FocusWindowOpened", "CursorAdvanced"]));
  });

  it("exercises every kind the SQL names, or says why not", () => {
    const unexercised = [...named]
      .filter(([kind]) => !seen.has(kind) && !(kind in EXEMPT))
      .map(([kind, files]) => `${kind} (named in ${files.join(", ")}): no scenario here writes it; add one to anAfternoon, or an EXEMPT entry with the reason`);
    expect(unexercised).toEqual([]);
    const stale = Object.keys(EXEMPT).filter((kind) => !named.has(kind as EventKind) || seen.has(kind));
    expect(stale, "EXEMPT entries the SQL no longer names, or that a scenario now writes: remove them").toEqual([]);
  });

  it("stores every payload of those kinds as payloads.ts types it", () => {
    expect(report, "stored payloads that differ from their kind's type in domain/journal/payloads.ts (or domain/runs/run-events.ts)").toEqual([]);
  });
});

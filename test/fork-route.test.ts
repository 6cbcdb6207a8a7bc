// POST /api/journal/runs/:id/fork over HTTP: a human forks a recorded coder run and reads its progress as it
// streams, then the report; the hub's journal is not written. Agents are refused, a bad body is a 400, an
// unknown run a 404, a run whose files were never recorded a 409 — each before any work starts.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
const POST = apiHandler("POST", "/api/journal/runs/[id]/fork");
import { getDb } from "../db/client";
import { loadRunEvents, type JournalRecord } from "../domain/journal/load";
import { payloadOf } from "../domain/journal/payloads";
import { appendLooseEvent } from "./fixtures/journal";
import { flightJournal, launchScratchFlight, settledStatus, startWorker, until } from "./fixtures/team";
import { makeAgent, makeHuman } from "./helpers";
import { apiHandler } from "./api";

let runId: string;
let planner: JournalRecord;
let recorded: JournalRecord[];
let human: Awaited<ReturnType<typeof makeHuman>>;
const SCRIPT = [{ toolCalls: [{ name: "run_tests", arguments: {} }] }, { toolCalls: [{ name: "done", arguments: { summary: "Only ran the tests.", evidence: [] } }] }];

beforeAll(async () => {
  const flown = await launchScratchFlight();
  const worker = startWorker();
  try {
    await until("the flight to settle", () => settledStatus(flown.flight.id));
  } finally {
    await worker.stop();
  }
  const journal = await flightJournal(flown.flight.id);
  runId = journal.find((e) => e.kind === "RunStarted" && payloadOf(e, "RunStarted").tools.some((t) => t.name === "edit_file"))!.runId!;
  planner = journal.find((e) => e.kind === "RunStarted" && payloadOf(e, "RunStarted").tools.some((t) => t.name === "create_task"))!;
  recorded = await loadRunEvents(getDb(), runId);
  human = await makeHuman();
}, 120_000);

/** Sends the fork as the browser does and reads the JSON Lines it streams back. */
async function fork(body: unknown, who: { cookie?: string; key?: string } = { cookie: human.cookie }, run = runId) {
  const headers: Record<string, string> = { host: "localhost", "content-type": "application/json" };
  if (who.cookie) headers.cookie = who.cookie;
  if (who.key) headers.authorization = `Bearer ${who.key}`;
  const response = await POST(new Request(`http://localhost/api/journal/runs/${run}/fork`, { method: "POST", headers, body: JSON.stringify(body) }), {
    params: Promise.resolve({ id: run }),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    lines: response.ok
      ? text
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l))
      : [],
    body: response.ok ? null : JSON.parse(text),
  };
}

describe("POST /api/journal/runs/:id/fork", () => {
  it("streams a human's fork: its progress step by step, then the report", { timeout: 120_000 }, async () => {
    const count = async () => (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from events`))[0].n;
    const before = await count();
    const keep = recorded.find((e) => e.kind === "RunStarted")!.id;
    const answer = await fork({ until: keep, script: SCRIPT });
    expect(answer.status).toBe(200);
    expect(answer.type).toContain("application/x-ndjson");
    const progress = answer.lines.filter((l) => "progress" in l).map((l) => l.progress as string);
    expect(progress[0]).toBe("re-living 1 recorded events from the journal");
    expect(progress).toContain("turn 1: run_tests → exit code 1");
    const { report } = answer.lines.at(-1);
    expect(report).toMatchObject({ runId, until: { eventId: keep, index: 0, turn: 0 }, prefixIdentical: true, forkResult: { status: "done", summary: "Only ran the tests." } });
    // The recorded coder read the file first; this one ran the tests at once: they part at the first answer.
    expect(report.divergence).toMatchObject({ index: 2, original: { kind: "ModelResponded" }, fork: { kind: "ModelResponded", what: "run_tests({})" } });
    expect(await count()).toBe(before);
  });

  it("refuses what it cannot do before any work starts", async () => {
    const keep = recorded[0].id;
    const agent = await makeAgent();
    expect((await fork({ until: keep, script: SCRIPT }, { key: agent.key })).status).toBe(403);
    expect((await fork({ until: keep, script: SCRIPT }, {})).status).toBe(401);
    const both = await fork({ until: keep, script: SCRIPT, live: true });
    expect(both).toMatchObject({ status: 400, body: { error: "invalid" } });
    expect((await fork({ until: keep, script: [{ say: "hi" }] })).status).toBe(400);
    expect((await fork({ until: keep })).status).toBe(400);
    const elsewhere = await fork({ until: 1, script: SCRIPT });
    expect(elsewhere).toMatchObject({ status: 400, body: { message: expect.stringContaining(`event 1 is not one of ${runId}'s steps`) } });
    expect((await fork({ until: keep, script: SCRIPT }, undefined, "run_nowhere")).status).toBe(404);
    // The end of the run leaves nothing to carry on.
    expect((await fork({ until: recorded.at(-1)!.id, script: SCRIPT })).status).toBe(400);
    // No model is configured here: live is refused, with how to configure one.
    expect(await fork({ until: keep, live: true })).toMatchObject({ status: 409, body: { error: "no_model" } });
    // A run that kept no record of its files cannot be rebuilt.
    const bare = `run_bare${Date.now()}`;
    await appendLooseEvent(getDb(), { kind: "RunStarted", actor: agent.id, runId: bare, turn: 0, data: { budgetIds: [], tools: [] } });
    const bareStart = (await loadRunEvents(getDb(), bare))[0].id;
    expect(await fork({ until: bareStart, script: SCRIPT }, undefined, bare)).toMatchObject({ status: 409, body: { error: "not_forkable" } });
    // An orchestrator's run files tasks: its tools reach the hub, so it does not fork.
    const planned = await fork({ until: planner.id, script: SCRIPT }, undefined, planner.runId!);
    expect(planned).toMatchObject({ status: 409, body: { error: "not_forkable", message: expect.stringContaining("create_task") } });
  });
});

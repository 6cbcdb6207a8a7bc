// OpenTelemetry traces of runs, received over OTLP/HTTP (protobuf, the default protocol) at a receiver of our own
// from a real scripted team flight: each run an `invoke_agent` root with a `chat` child per model call and an
// `execute_tool` child per tool call, named and attributed as the GenAI semantic conventions say, the flight as
// the conversation, the provider as the client names itself; the trace's id journalled in RunStarted and shown
// on the run's timeline; a failed call an error; a resumed run's drive in the same trace; a replay identical and
// untraced. The same calls reach /metrics, counted from the journal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
const runTimeline = apiHandler("GET", "/api/journal/runs/[id]");
import { GET as metricsRoute } from "@/app/metrics/route";
import { getDb } from "../db/client";
import { systemClock } from "../domain/clock";
import { eq } from "drizzle-orm";
import { events } from "../db/schema";
import { type JournalRecord, loadEventsOfKinds, loadRunEvents } from "../domain/journal/load";
import { payloadOf } from "../domain/journal/payloads";
import { readPrincipal } from "../domain/principals/list-principals";
import type { Tracing } from "../domain/telemetry/tracing";
import { flightJournal, launchScratchFlight, settledStatus, startWorker, until } from "../test/fixtures/team";
import type { OtlpReceiver } from "../test/fixtures/otlp-receiver";
import { traceIntoReceiver } from "../test/fixtures/tracing";
import { sample } from "../test/fixtures/prometheus";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";
import { call, makeAgent, makeHuman } from "../test/helpers";
import { scriptedClient } from "./model/scripted";
import { replayRun } from "./replay";
import { resumeRun } from "./resume";
import { startRun } from "./run";
import { otelRunTracer } from "./run-spans";
import { traceRuns } from "./run-tracing";
import { apiHandler } from "../test/api";

const INTERNAL = 1;
const CLIENT = 3;
const ERROR = 2;

let receiver: OtlpReceiver;
let tracing: Tracing;
let stopTracing: () => Promise<void>;

beforeAll(async () => {
  // The default protocol, http/protobuf.
  ({ receiver, tracing, close: stopTracing } = await traceIntoReceiver("worker", "http/protobuf"));
  traceRuns(otelRunTracer());
});

afterAll(async () => {
  traceRuns(null);
  await stopTracing?.();
});

function traceOf(runStarted: JournalRecord): string {
  const traceId = payloadOf(runStarted, "RunStarted").traceId;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  return traceId!;
}

describe("traces of runs", () => {
  it("exports each run of a scripted flight as invoke_agent → chat and execute_tool spans, in the GenAI conventions' words", async () => {
    const { flight } = await launchScratchFlight();
    const worker = startWorker();
    try {
      expect(await until("the flight to settle", () => settledStatus(flight.id))).toBe("green");
    } finally {
      await worker.stop();
    }
    await tracing.flush();
    const journal = await flightJournal(flight.id);
    const starts = journal.filter((e) => e.kind === "RunStarted");
    expect(starts.length).toBeGreaterThanOrEqual(4); // the orchestrator plans, a coder codes, the reviewer reviews, the tester tests
    const human = await makeHuman();
    for (const started of starts) {
      const traceId = traceOf(started);
      const runEvents = journal.filter((e) => e.runId === started.runId);
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      expect(spans.every((s) => s.encoding === "protobuf")).toBe(true);
      const roots = spans.filter((s) => s.parentSpanId === "");
      expect(roots, `run ${started.runId}`).toHaveLength(1);
      const [drive] = roots;
      const agentName = (started as JournalRecord & { actorName?: string }).actorName;
      expect(drive).toMatchObject({ kind: INTERNAL, name: expect.stringMatching(/^invoke_agent \S+$/) });
      expect(drive.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "quorum.scripted",
        "gen_ai.request.model": "scripted",
        "gen_ai.agent.id": started.actor,
        "gen_ai.conversation.id": flight.id,
        "quorum.run.id": started.runId,
        "quorum.run.outcome": "done",
      });
      expect(drive.name).toBe(`invoke_agent ${drive.attributes["gen_ai.agent.name"]}`);
      if (agentName) expect(drive.attributes["gen_ai.agent.name"]).toBe(agentName);
      expect(drive.resource).toMatchObject({ "service.name": "quorum", "quorum.process": "worker" });

      // One chat span per model call, each the drive's child, carrying the call's usage.
      const chats = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
      const responses = runEvents.filter((e) => e.kind === "ModelResponded").map((e) => payloadOf(e, "ModelResponded"));
      expect(chats).toHaveLength(runEvents.filter((e) => e.kind === "ModelCalled").length);
      expect(chats).toHaveLength(responses.length);
      for (const chat of chats) {
        expect(chat).toMatchObject({ kind: CLIENT, name: "chat scripted", parentSpanId: drive.spanId });
        expect(chat.attributes).toMatchObject({ "gen_ai.provider.name": "quorum.scripted", "gen_ai.request.model": "scripted", "gen_ai.conversation.id": flight.id });
        expect(chat.endNanos).toBeGreaterThanOrEqual(chat.startNanos);
      }
      const usage = (key: "gen_ai.usage.input_tokens" | "gen_ai.usage.output_tokens") => chats.reduce((sum, s) => sum + Number(s.attributes[key]), 0);
      expect(usage("gen_ai.usage.input_tokens")).toBe(responses.reduce((sum, r) => sum + r.usage.inputTokens, 0));
      expect(usage("gen_ai.usage.output_tokens")).toBe(responses.reduce((sum, r) => sum + r.usage.outputTokens, 0));
      expect(drive.attributes["gen_ai.usage.input_tokens"]).toBe(usage("gen_ai.usage.input_tokens"));

      // One execute_tool span per tool call returned, by call id, an error exactly when the observation was one.
      const tools = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "execute_tool");
      const returned = runEvents.filter((e) => e.kind === "ToolReturned").map((e) => payloadOf(e, "ToolReturned"));
      expect(tools.map((s) => s.attributes["gen_ai.tool.call.id"]).sort()).toEqual(returned.map((r) => r.callId).sort());
      for (const r of returned) {
        const span = tools.find((s) => s.attributes["gen_ai.tool.call.id"] === r.callId)!;
        expect(span).toMatchObject({ kind: INTERNAL, name: `execute_tool ${r.tool}`, parentSpanId: drive.spanId });
        expect(span.attributes).toMatchObject({ "gen_ai.tool.name": r.tool, "gen_ai.tool.type": "function", "gen_ai.agent.name": drive.attributes["gen_ai.agent.name"] });
        expect(span.status.code === ERROR).toBe(r.observation.is_error);
      }
      expect(spans).toHaveLength(1 + chats.length + tools.length);

      // The run's timeline (the Journal's run view) shows the trace's id.
      const timeline = await call(runTimeline, `/api/journal/runs/${started.runId}`, { cookie: human.cookie, params: { id: started.runId! } });
      expect(timeline.body.config.traceId).toBe(traceId);
    }

    // The same model calls, tokens and tool calls reach /metrics by role and model client: counted from the
    // journal, so a worker that serves no metrics (here, this process's team) is counted all the same.
    const exposition = await (await metricsRoute(new Request("http://localhost/metrics", { headers: { host: "localhost", cookie: human.cookie } }))).text();
    const roleOf = new Map<string, string>();
    for (const actor of new Set(starts.map((e) => e.actor!))) roleOf.set(actor, (await readPrincipal(getDb(), actor)).role ?? "");
    for (const role of new Set(roleOf.values())) {
      const mine = journal.filter((e) => e.actor && roleOf.get(e.actor) === role);
      const debits = mine.filter((e) => e.kind === "BudgetDebited").map((e) => payloadOf(e, "BudgetDebited"));
      expect(sample(exposition, `quorum_model_calls_total{role="${role}",model="scripted"}`), role).toBe(mine.filter((e) => e.kind === "ModelCalled").length);
      expect(sample(exposition, `quorum_model_tokens_total{role="${role}",model="scripted",type="input"}`), role).toBe(debits.reduce((sum, d) => sum + d.inputTokens, 0));
    }
    const coderTests = journal.filter((e) => e.kind === "ToolReturned" && roleOf.get(e.actor ?? "") === "coder" && payloadOf(e, "ToolReturned").tool === "run_tests");
    expect(sample(exposition, 'quorum_tool_calls_total{role="coder",tool="run_tests",outcome="ok"}')).toBe(
      coderTests.filter((e) => !payloadOf(e, "ToolReturned").observation.is_error).length,
    );
  }, 120_000);

  it("marks a failed model call and its drive as errors, joins the resumed drive to the same trace, and replays identically without a span", async () => {
    const db = getDb();
    const agent = await makeAgent("tracer-coder");
    const root = makeScratchRepo();
    const failing = scriptedClient([FIX_SCRIPT[0], { error: "HTTP 503: the server is overloaded", status: 503 }]);
    const first = startRun(db, { agent, task: FIX_TASK, system: CODER_SYSTEM, client: failing, tools: scratchTools({ quick: true }), root, clock: systemClock });
    await expect(first).rejects.toThrow(/overloaded/);
    const [started] = await loadEventsOfKinds(db, ["RunStarted"], eq(events.actor, agent.id));
    const runId = started.runId!;
    const traceId = traceOf(started);
    await tracing.flush();
    const failed = receiver.spans.filter((s) => s.traceId === traceId);
    const failedChat = failed.find((s) => s.name === "chat scripted" && s.status.code === ERROR);
    expect(failedChat?.status.message).toMatch(/overloaded/);
    expect(failedChat?.attributes["error.type"]).toBe("503");
    expect(failed.find((s) => s.parentSpanId === "")).toMatchObject({ status: { code: ERROR }, attributes: { "error.type": "503" } });

    // Resumed (in what could be another process): a second root span, in the same trace.
    const result = await resumeRun(db, runId, { client: scriptedClient(FIX_SCRIPT), tools: scratchTools({ quick: true }), root, clock: systemClock });
    expect(result.status).toBe("done");
    await tracing.flush();
    const drives = receiver.spans.filter((s) => s.traceId === traceId && s.parentSpanId === "");
    expect(drives).toHaveLength(2);
    expect(drives[1].attributes).toMatchObject({ "gen_ai.agent.name": "tracer-coder", "quorum.run.resumed": true, "quorum.run.outcome": "done" });

    // The trace's id lives in RunStarted alone, which a replay copies: the replay is identical and sends no span.
    const before = receiver.spans.length;
    const report = await replayRun(await loadRunEvents(db, runId));
    expect(report.identical).toBe(true);
    await tracing.flush();
    expect(receiver.spans.length).toBe(before);
  }, 60_000);
});

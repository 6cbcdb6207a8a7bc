// The operator stop over HTTP: a human (or the run's own agent) asks a live run to stop; the request is
// journalled for whichever process drives the run. Finished runs, strangers and bad input are refused.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
const stopRoute = apiRoute("/api/runs/[id]/stop");
import { getDb } from "../../db/client";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { loadRunEvents } from "../journal/load";
import { apiRoute } from "../../test/api";

async function startedRun(agentId: string): Promise<string> {
  const runId = `run_${randomBytes(8).toString("hex")}`;
  await appendLooseEvent(getDb(), { kind: "RunStarted", actor: agentId, runId, turn: 0, data: { budgetIds: [], tools: [] } });
  return runId;
}

const stop = (runId: string, body: unknown, who: { key?: string; cookie?: string }) => call(stopRoute.POST, `/api/runs/${runId}/stop`, { body, params: { id: runId }, ...who });

describe("POST /api/runs/:id/stop", () => {
  it("journals a human's stop request with its reason, to be honoured at the next turn boundary", async () => {
    const [human, agent] = [await makeHuman(), await makeAgent()];
    const runId = await startedRun(agent.id);
    const reply = await stop(runId, { reason: "wrong approach" }, { cookie: human.cookie });
    expect(reply).toMatchObject({ status: 202, body: { runId, requested: true } });
    const requested = (await loadRunEvents(getDb(), runId)).filter((e) => e.kind === "StopRequested");
    expect(requested).toMatchObject([{ actor: human.id, data: { reason: "wrong approach" } }]);
    // The run's own agent may stop itself too.
    expect((await stop(runId, { reason: "I am going in circles" }, { key: agent.key })).status).toBe(202);
  });

  it("refuses other agents, a missing reason, unknown runs and runs that already finished", async () => {
    const [human, agent, stranger] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const runId = await startedRun(agent.id);
    expect((await stop(runId, { reason: "mine now" }, { key: stranger.key })).status).toBe(403);
    expect((await stop(runId, {}, { cookie: human.cookie })).status).toBe(400);
    expect((await stop(runId, { reason: "   " }, { cookie: human.cookie })).status).toBe(400);
    expect((await stop("run_nope", { reason: "who" }, { cookie: human.cookie })).status).toBe(404);
    // A NUL in a path segment is refused as a malformed request before any lookup (issue 14).
    expect((await stop("run\u0000x", { reason: "who" }, { cookie: human.cookie })).status).toBe(400);
    await appendLooseEvent(getDb(), { kind: "AgentFinished", actor: agent.id, runId, turn: 1, data: { result: { status: "out_of_turns", turns: 1, spent: 0 } } });
    expect(await stop(runId, { reason: "late" }, { cookie: human.cookie })).toMatchObject({ status: 409, body: { error: "run_finished" } });
    expect((await loadRunEvents(getDb(), runId)).filter((e) => e.kind === "StopRequested")).toEqual([]);
  });
});

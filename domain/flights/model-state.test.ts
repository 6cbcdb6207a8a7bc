// The model's state from the journal: unknown, ok, failing since the streak's first failure (counted),
// unreachable when the latest failure got no answer at all, ok again after an answer; other models' runs do not count.
import { describe, expect, it } from "vitest";
const teamRoute = apiHandler("GET", "/api/team");
import { getDb } from "../../db/client";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { readModelState } from "./model-state";
import { apiHandler } from "../../test/api";

describe("the model's state", () => {
  it("follows the latest calls of runs on that model", async () => {
    const db = getDb();
    const agent = await makeAgent();
    const model = `openai-compatible:m-${Date.now()}`;
    let n = 0;
    const run = async (on: string) => {
      const runId = `run_state_${Date.now()}_${n++}`;
      await appendLooseEvent(db, { kind: "RunStarted", actor: agent.id, runId, turn: 0, data: { model: on } });
      return runId;
    };
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 12, minute));
    const answer = (runId: string, minute: number) => appendLooseEvent(db, { kind: "ModelResponded", actor: agent.id, runId, turn: 1, t: at(minute), data: { text: "" } });
    const failure = (runId: string, minute: number, status: number | null) =>
      appendLooseEvent(db, { kind: "ModelFailed", actor: agent.id, runId, turn: 1, t: at(minute), data: { error: `boom ${minute}`, status, permanent: false, attempts: 3 } });

    expect(await readModelState(db, model)).toEqual({ model, state: "unknown", since: null, failures: 0, lastError: null });
    const first = await run(model);
    await answer(first, 1);
    expect(await readModelState(db, model)).toMatchObject({ state: "ok", since: at(1).toISOString() });
    const second = await run(model);
    await failure(second, 2, 500);
    await failure(await run("anthropic:other"), 3, 401);
    await failure(await run(model), 4, 503);
    expect(await readModelState(db, model)).toEqual({ model, state: "failing", since: at(2).toISOString(), failures: 2, lastError: "boom 4" });
    await failure(await run(model), 5, null);
    expect(await readModelState(db, model)).toMatchObject({ state: "unreachable", since: at(2).toISOString(), failures: 3 });
    await answer(await run(model), 6);
    expect(await readModelState(db, model)).toMatchObject({ state: "ok", failures: 0, lastError: null });

    // GET /api/team carries it for the team's model.
    await appendLooseEvent(db, { kind: "TeamStarted", actor: null, data: { roles: ["coder"], mode: model } });
    await failure(await run(model), 7, null);
    const team = await call(teamRoute, "/api/team", { cookie: (await makeHuman()).cookie });
    expect(team.body).toMatchObject({ mode: model, model: { state: "unreachable", since: at(7).toISOString(), failures: 1 } });
  });
});

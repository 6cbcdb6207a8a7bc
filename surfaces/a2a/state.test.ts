// The state map (surfaces/a2a/state.ts) on every board status, and through the team skill: an agent's message asks
// the team for a flight on a repository a human has flown; the goal reads WORKING, and once the team hands it back
// to its human, FAILED with the reason — in GetTask and in ListTasks' FAILED and WORKING alike.
import { setFlightAllowance } from "../../domain/flights/agent-allowance";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
const startRoute = apiHandler("POST", "/api/flights");
import { getDb } from "../../db/client";
import { message, rpc } from "../../test/a2a/client";
import { twoFailuresRepo } from "../../test/fixtures/repos";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../../domain/clock";
import { handGoalBack } from "../../domain/flights/hand-back";
import { announceTeamStarted, ensureTeamMember } from "../../domain/flights/team-members";
import { readFlight } from "../../domain/flights/view";
import { claimTask } from "../../domain/tasks/claim";
import { TASK_STATUSES } from "../../db/schema";
import { a2aStateOf, isSettled, isTerminal, statusesOf } from "./state";
import { apiHandler } from "../../test/api";

describe("the state map", () => {
  it("reads each board status as its A2A state, a handed-back goal as FAILED, and back again for filtering", () => {
    const map = Object.fromEntries(TASK_STATUSES.map((status) => [status, TaskState[a2aStateOf({ status, handedBack: false })]]));
    expect(map).toEqual({
      ready: "TASK_STATE_WORKING",
      in_progress: "TASK_STATE_WORKING",
      review: "TASK_STATE_INPUT_REQUIRED",
      done: "TASK_STATE_COMPLETED",
      cancelled: "TASK_STATE_CANCELED",
    });
    expect(a2aStateOf({ status: "ready", handedBack: true })).toBe(TaskState.TASK_STATE_FAILED);
    for (const status of TASK_STATUSES) for (const handedBack of [false, true]) expect(statusesOf(a2aStateOf({ status, handedBack }))).toContain(handedBack ? "ready" : status);
    expect(statusesOf(TaskState.TASK_STATE_REJECTED)).toEqual([]);
    expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_FAILED].every(isTerminal)).toBe(true);
    expect([isTerminal(TaskState.TASK_STATE_INPUT_REQUIRED), isSettled(TaskState.TASK_STATE_INPUT_REQUIRED), isSettled(TaskState.TASK_STATE_WORKING)]).toEqual([
      false,
      true,
      false,
    ]);
  });
});

describe("the team skill", () => {
  it("asks the team for a flight whose goal waits for the human who flew the repository; the goal handed back is FAILED with the reason", async () => {
    const [human, agent] = [await makeHuman(), await makeAgent()];
    const { principal: orchestrator } = await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
    await announceTeamStarted(getDb(), ["orchestrator", "coder", "reviewer", "tester"], "openai-compatible:stand-in", systemClock);
    const repo = twoFailuresRepo().repo;
    const team = (data: Record<string, unknown>) =>
      rpc(agent.key, "SendMessage", { message: message("Make the slug and clamp tests pass", data, { metadata: { skill: "team" } }), configuration: { returnImmediately: true } });

    expect((await team({ repo })).body.error).toMatchObject({ code: -31403, message: expect.stringMatching(/may not start flights/) });
    await setFlightAllowance(getDb(), human, agent.id, { tokens: 1_000_000 }, systemClock);
    expect((await team({ repo })).body.error).toMatchObject({ code: -31403, message: expect.stringMatching(/no human has flown/) });
    expect((await call(startRoute, "/api/flights", { cookie: human.cookie, body: { repo, goal: "First, by a human" } })).status).toBe(201);
    const sent = await team({ repo });
    const goal = sent.body.result.task;
    expect(goal.status.state).toBe("TASK_STATE_WORKING");
    expect(goal.metadata.quorum).toMatchObject({ approverName: human.name, title: expect.stringMatching(/^Goal of flight \d+: Make the slug and clamp tests pass/) });

    // The orchestrator takes the goal and its model fails for good: the goal goes back to its human.
    const flightId = (await getDb().query.flights.findFirst({ where: (f, { eq }) => eq(f.goalTaskId, goal.id) }))!.id;
    await claimTask(getDb(), orchestrator, goal.id, systemClock);
    const flight = await getDb().query.flights.findFirst({ where: (f, { eq }) => eq(f.id, flightId) });
    const ending = { runId: null, outcome: "failed", reason: "HTTP 401 from the model: the key was refused", model: "openai-compatible:stand-in", advice: "check the key" };
    expect(await handGoalBack(getDb(), orchestrator, flight!, ending, systemClock)).not.toBeNull();
    expect((await readFlight(getDb(), flightId)).status).toBe("red");

    const failed = (await rpc(agent.key, "GetTask", { id: goal.id })).body.result;
    expect(failed.status.state).toBe("TASK_STATE_FAILED");
    expect(failed.status.message.parts[0].text).toBe(`#${goal.metadata.quorum.number} came back to ${human.name}: HTTP 401 from the model: the key was refused`);
    const listed = async (status: string) => (await rpc(agent.key, "ListTasks", { contextId: goal.id, status })).body.result;
    expect((await listed("TASK_STATE_FAILED")).tasks.map((t: { id: string }) => t.id)).toEqual([goal.id]);
    expect(await listed("TASK_STATE_WORKING")).toMatchObject({ tasks: [], totalSize: 0 });
    expect((await listed("TASK_STATE_FAILED")).totalSize).toBe(1);
  });
});

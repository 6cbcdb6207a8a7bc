// Flight threads over HTTP: two flights' messages come back apart under `flight=`, the folded stream keeps the
// unthreaded messages and one opening per thread (with its count), and both obey the rule on direct messages.
import { beforeAll, describe, expect, it } from "vitest";
import { flights, flightTasks } from "../../db/schema";
import { getDb } from "../../db/client";
import { systemClock } from "../clock";
import type { Principal } from "../principal";
import { apiHandler } from "../../test/api";
import { makeReadyTask } from "../../test/fixtures/board";
import { ackAndPost, freshRoom } from "../../test/fixtures/room";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import type { PostMessageInput } from "./post-message";

const listRoute = apiHandler("GET", "/api/rooms/[room]/messages");
const clock = systemClock;

/** A flight with a goal task and one planned task, as launch and the plan leave them. */
async function makeFlight(human: Principal) {
  const goal = await makeReadyTask(human, { title: "goal" });
  const [flight] = await getDb().insert(flights).values({ goal: "goal", repo: "/nowhere", goalTaskId: goal.id, mode: "scripted", createdBy: human.id }).returning();
  const task = await makeReadyTask(human, { title: "planned", parentId: goal.id });
  await getDb().insert(flightTasks).values({ taskId: task.id, flightId: flight.id });
  return { number: flight.number, goalId: goal.id, taskId: task.id };
}

interface Listed {
  body: string;
  flight: number | null;
  thread?: { replies: number; lastActivityAt: string };
  createdAt: string;
}

describe("a room's flight threads", () => {
  let human: Awaited<ReturnType<typeof makeHuman>>;
  let coder: Awaited<ReturnType<typeof makeAgent>>;
  let reviewer: Awaited<ReturnType<typeof makeAgent>>;
  let outsider: Awaited<ReturnType<typeof makeAgent>>;
  let room: string;
  let a: Awaited<ReturnType<typeof makeFlight>>;
  let b: Awaited<ReturnType<typeof makeFlight>>;
  const said: Record<string, Listed> = {};

  const post = async (who: Principal, input: PostMessageInput) => {
    const posted = await ackAndPost(who, room, input, clock);
    if (!posted.ok) throw new Error(`${who.name} was refused: ${posted.code}`);
    said[input.body] = posted.message;
    return posted.message;
  };
  const list = (who: { key: string } | { cookie: string }, query: string) => call(listRoute, `/api/rooms/${room}/messages?${query}`, { params: { room }, ...who });
  const bodies = (page: { body: { items: Listed[] } }) => page.body.items.map((m) => m.body);

  beforeAll(async () => {
    human = await makeHuman();
    [coder, reviewer, outsider] = [await makeAgent(), await makeAgent(undefined, "reviewer"), await makeAgent()];
    room = await freshRoom(human);
    a = await makeFlight(human);
    b = await makeFlight(human);
    await post(human, { body: "morning all" });
    await post(human, { body: "flight A starts", performative: "REQUEST", taskId: a.goalId });
    // Like a launch's REQUEST, flight B opens with a direct message: an agent not party to it sees B open later.
    await post(human, { body: "flight B starts", performative: "REQUEST", to: reviewer.name, taskId: b.goalId });
    await post(coder, { body: "A: working on the planned task", taskId: a.taskId });
    await post(reviewer, { body: "B: looking at it", taskId: b.taskId });
    await post(human, { body: "lunch?" });
    await post(coder, { body: "A: ready for your review", performative: "DONE", to: human.name, taskId: a.taskId });
    await post(coder, { body: "A: a word to the reviewer", to: reviewer.name, taskId: a.goalId });
    await post(reviewer, { body: `B: @${human.name} which parser?`, taskId: b.taskId });
  });

  it("says on every message which flight's thread it is in", async () => {
    const all = await list(human, "");
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: Listed) => [m.body, m.flight])).toEqual([
      ["morning all", null],
      ["flight A starts", a.number],
      ["flight B starts", b.number],
      ["A: working on the planned task", a.number],
      ["B: looking at it", b.number],
      ["lunch?", null],
      ["A: ready for your review", a.number],
      ["A: a word to the reviewer", a.number],
      [`B: @${human.name} which parser?`, b.number],
    ]);
    // The post's own answer says it too.
    expect(said["A: working on the planned task"].flight).toBe(a.number);
    expect(said["lunch?"].flight).toBeNull();
  });

  it("reads two flights' threads apart, each oldest first", async () => {
    expect(bodies(await list(human, `flight=${a.number}`))).toEqual(["flight A starts", "A: working on the planned task", "A: ready for your review", "A: a word to the reviewer"]);
    expect(bodies(await list(human, `flight=${b.number}`))).toEqual(["flight B starts", "B: looking at it", `B: @${human.name} which parser?`]);
    // Paging works inside a thread as in the room.
    const tail = await list(human, `flight=${a.number}&limit=2`);
    expect(bodies(tail)).toEqual(["A: ready for your review", "A: a word to the reviewer"]);
    expect(bodies(await list(human, `flight=${a.number}&limit=2&before=${tail.body.next}`))).toEqual(["flight A starts", "A: working on the planned task"]);
  });

  it("folds each thread into its first message, keeping unthreaded messages and what a flight says to a human", async () => {
    const folded = await list(human, "threads=folded");
    expect(folded.status).toBe(200);
    const mention = `B: @${human.name} which parser?`;
    expect(bodies(folded)).toEqual(["morning all", "flight A starts", "flight B starts", "lunch?", "A: ready for your review", mention]);
    const [, openA, openB, , toHuman, naming] = folded.body.items as Listed[];
    expect(openA.thread).toEqual({ replies: 3, lastActivityAt: said["A: a word to the reviewer"].createdAt });
    expect(openB.thread).toEqual({ replies: 2, lastActivityAt: said[mention].createdAt });
    // A message to a human, or naming one, stays in the stream, marked with its flight, but it opens no thread.
    expect(toHuman).toMatchObject({ flight: a.number });
    expect(toHuman.thread).toBeUndefined();
    expect(naming).toMatchObject({ flight: b.number });
    expect(naming.thread).toBeUndefined();
    expect(bodies(await list(human, "threads=folded&limit=2"))).toEqual(["A: ready for your review", mention]);
  });

  it("keeps the rule on direct messages: an agent sees the threads without what was not said to it", async () => {
    expect(bodies(await list(outsider, `flight=${a.number}`))).toEqual(["flight A starts", "A: working on the planned task"]);
    const mention = `B: @${human.name} which parser?`;
    expect(bodies(await list(outsider, `flight=${b.number}`))).toEqual(["B: looking at it", mention]);
    const folded = (await list(outsider, "threads=folded")).body.items as Listed[];
    expect(folded.map((m) => m.body)).toEqual(["morning all", "flight A starts", "B: looking at it", "lunch?", mention]);
    expect(folded[1].thread).toEqual({ replies: 1, lastActivityAt: said["A: working on the planned task"].createdAt });
    expect(folded[2].thread).toEqual({ replies: 1, lastActivityAt: said[mention].createdAt });
    // The reviewer was sent both direct messages: it sees them in their threads.
    expect(bodies(await list(reviewer, `flight=${b.number}`))).toEqual(["flight B starts", "B: looking at it", mention]);
    expect(bodies(await list(reviewer, `flight=${a.number}`))).toContain("A: a word to the reviewer");
  });

  it("refuses a flight that does not exist, and a thread asked for folded", async () => {
    const missing = await list(human, "flight=2147483647");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain("no flight numbered 2147483647");
    const both = await list(human, `flight=${a.number}&threads=folded`);
    expect(both.status).toBe(400);
    expect((await list(human, "threads=sideways")).status).toBe(400);
  });
});

// What waits for a human: escalations, the reviews they approve, requests addressed to them — and each
// leaves the list once it is decided or answered.
import { describe, expect, it } from "vitest";
const waitingRoute = apiHandler("GET", "/api/me/waiting");
import { getDb } from "../../db/client";
import { makeReadyTask } from "../../test/fixtures/board";
import { ackAndPost, freshRoom } from "../../test/fixtures/room";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { manualClock } from "../clock";
import { castBallot } from "../decisions/cast-ballot";
import { openDecision } from "../decisions/open-decision";
import { resolveEscalation } from "../decisions/resolve-escalation";
import { claimTask } from "../tasks/claim";
import { reviewTask } from "../tasks/review";
import { submitTask } from "../tasks/submit";
import { listWaiting } from "./waiting";
import { apiHandler } from "../../test/api";

describe("what waits for you", () => {
  it("counts escalations, reviews you approve and requests to you, and drops each once it is done", async () => {
    const clock = manualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
    const db = getDb();
    const [human, other] = [await makeHuman(), await makeHuman()];
    const [a, b] = [await makeAgent(), await makeAgent()];

    expect(await listWaiting(db, human)).toEqual({ total: 0, items: [], byPage: { "/decisions": 0, "/board": 0, "/room": 0 } });

    // A tie escalates: every human decides it, no agent does.
    const decision = await openDecision(
      db,
      a,
      { question: "Which parser?", options: ["nom", "pest"], defaultOption: "nom", consequence: "we keep nom", quorum: 2, timeboxSeconds: 600, escalationTimeboxSeconds: 300 },
      clock,
    );
    await castBallot(db, a, decision.id, { option: "nom", reasoning: "typed" }, clock);
    await castBallot(db, b, decision.id, { option: "pest", reasoning: "readable" }, clock);

    // A task in review whose approver is this human (not the other's).
    const mine = await makeReadyTask(human, { title: "Parse empty input" }, clock);
    const theirs = await makeReadyTask(other, { title: "Someone else's" }, clock);
    for (const task of [mine, theirs]) {
      const claimed = await claimTask(db, a, task.id, clock);
      await submitTask(db, a, task.id, { fence: claimed.fence, summary: "done", evidence: "✓ 3 passed" }, clock);
    }

    // A REQUEST to this human, and a REQUEST to nobody in particular.
    const room = await freshRoom(human, "desk");
    await ackAndPost(b, room, { body: "@human may I delete the old parser?\nIt is unused.", performative: "REQUEST", to: human.name }, clock);
    await ackAndPost(b, room, { body: "anyone: lunch?", performative: "REQUEST" }, clock);

    const waiting = await listWaiting(db, human);
    expect(waiting.total).toBe(3);
    expect(waiting.byPage).toEqual({ "/decisions": 1, "/board": 1, "/room": 1 });
    expect(waiting.items).toMatchObject([
      { kind: "escalation", decisionId: decision.id, question: "Which parser?", defaultOption: "nom" },
      { kind: "review", taskId: mine.id, number: mine.number, title: "Parse empty input", ownerName: a.name },
      { kind: "request", room, performative: "REQUEST", fromName: b.name, excerpt: "@human may I delete the old parser?" },
    ]);

    // An agent is never asked to resolve an escalation; it waits on what it approves and what is asked of it.
    expect((await listWaiting(db, a)).items).toEqual([]);

    // The route answers the same for the signed-in human.
    const res = await call(waitingRoute, "/api/me/waiting", { cookie: human.cookie });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);

    // Deciding, reviewing and answering each take their item away.
    await resolveEscalation(db, human, decision.id, { option: "pest" }, clock);
    await reviewTask(db, human, mine.id, { verdict: "accept" }, clock);
    await ackAndPost(human, room, { body: "yes, go ahead", performative: "ACCEPT", to: b.name }, clock);
    expect(await listWaiting(db, human)).toMatchObject({ total: 0, items: [] });
    expect((await listWaiting(db, other)).items).toMatchObject([{ kind: "review", taskId: theirs.id }]);
  });
});

// A task's thread and audit as pure folds of hand-made events.
import { describe, expect, it } from "vitest";
import { handMadeEvent, handMadeJournal } from "../../test/fixtures/journal";
import { audit } from "./audit";
import { thread } from "./thread";

const T1 = "11111111-1111-4111-8111-111111111111";
const T2 = "22222222-2222-4222-8222-222222222222";
const [CODER, REVIEWER, HUMAN] = ["c0", "r0", "h0"];

describe("thread", () => {
  it("gives a task's messages, transitions and run milestones in journal order, and nothing of other tasks", () => {
    const events = handMadeJournal(
      handMadeEvent("TaskCreated", HUMAN, { number: 1, title: "fix parse" }, { taskId: T1 }),
      handMadeEvent("MessageSent", HUMAN, { room: "general", seq: 1, messageId: 1, to: CODER, performative: "REQUEST", body: "please" }, { taskId: T1 }),
      handMadeEvent("MessageSent", HUMAN, { room: "general", seq: 2, messageId: 2, to: null, performative: null, body: "elsewhere" }, { taskId: T2 }),
      handMadeEvent("TaskClaimed", CODER, { number: 1, fence: 1 }, { taskId: T1 }),
      handMadeEvent("RunStarted", CODER, {}, { runId: "R1", taskId: T1 }),
      handMadeEvent("ModelCalled", CODER, { turn: 1, mail: [] }, { runId: "R1", taskId: T1, turn: 1 }),
      handMadeEvent("AgentFinished", CODER, { result: { status: "done", summary: "guarded ''", evidence: [], turns: 1, spent: 9 } }, { runId: "R1", taskId: T1 }),
      handMadeEvent("MessageSent", CODER, { room: "general", seq: 3, messageId: 3, to: HUMAN, performative: "DONE", body: "done" }, { taskId: T1 }),
    );
    const entries = thread(events, T1);
    expect(entries.map((e) => [e.eventId, e.type, e.type === "message" ? e.body : e.kind])).toEqual([
      [1, "transition", "TaskCreated"],
      [2, "message", "please"],
      [4, "transition", "TaskClaimed"],
      [5, "run", "RunStarted"],
      [7, "run", "AgentFinished"],
      [8, "message", "done"],
    ]);
    expect(entries[4]).toMatchObject({ runId: "R1", status: "done", summary: "guarded ''" });
    expect(entries[1]).toMatchObject({ to: CODER, performative: "REQUEST", seq: 1, t: "2026-01-01T00:00:01.000Z" });
  });
});

describe("audit", () => {
  it("ties every verdict to the evidence it judged", () => {
    const events = handMadeJournal(
      handMadeEvent("TaskSubmitted", CODER, { number: 1, fence: 1, summary: "first try", evidenceId: 5 }, { taskId: T1 }),
      handMadeEvent("TaskReviewed", REVIEWER, { verdict: "reject", reason: "no test for ''", ownerId: CODER }, { taskId: T1 }),
      handMadeEvent("AgentFinished", CODER, { result: { status: "done", summary: "added the test", evidence: ["2 passed"], turns: 3, spent: 10 } }, { taskId: T1, runId: "R1" }),
      handMadeEvent("MessageSent", REVIEWER, { messageId: 9, performative: "ACCEPT", body: "good now" }, { taskId: T1 }),
      handMadeEvent("TaskReviewed", REVIEWER, { verdict: "accept", reason: null }, { taskId: T1 }),
      handMadeEvent("TaskReviewed", REVIEWER, { verdict: "reject", reason: "other task" }, { taskId: T2 }),
    );
    const result = audit(events, T1, { "5": "diff --git a/parser.js" });
    expect(result.submissions.map((s) => [s.eventId, s.via, s.summary, s.evidence])).toEqual([
      [1, "board", "first try", ["diff --git a/parser.js"]],
      [3, "run", "added the test", ["2 passed"]],
    ]);
    expect(result.verdicts.map((v) => [v.eventId, v.by, v.via, v.verdict, v.reason, v.on?.eventId])).toEqual([
      [2, REVIEWER, "review", "reject", "no test for ''", 1],
      [4, REVIEWER, "message", "accept", "good now", 3],
      [5, REVIEWER, "review", "accept", null, 3],
    ]);
    expect(result.accepted).toBe(true);
  });
});

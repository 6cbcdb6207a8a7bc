// diagnose over the first flight and its four crashes: the clean flight comes back clean, and each
// crash yields exactly its own finding and no other's.
import { describe, expect, it } from "vitest";
import type { JournalRecord } from "../journal/load";
import { diagnose } from "./diagnose";

const [ORCH, CODER, REVIEWER, TESTER] = [1, 2, 3, 4].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
const T1 = "11111111-1111-4111-8111-111111111111";
const ok = { is_error: false, result: { ok: true } };

interface Crashes {
  duplicate?: boolean;
  silentReviewer?: boolean;
  prematureDone?: boolean;
  flakyRunner?: boolean;
  digestDelivery?: boolean;
}

/** The first flight, event by event; each option breaks it the way one crash of the chapter does. */
function flight(crash: Crashes = {}): JournalRecord[] {
  const events: JournalRecord[] = [];
  let messageId = 100;
  const add = (kind: string, actor: string | null, data: object, extra: Partial<JournalRecord> = {}) => {
    events.push({ id: events.length + 1, t: new Date(0), kind, actor, runId: null, taskId: T1, turn: null, data, ...extra });
  };
  const send = (from: string, to: string, performative: string) => {
    const id = ++messageId;
    add("MessageSent", from, { room: "general", seq: id, messageId: id, to, performative, body: `${performative} from ${from}` });
    if (crash.digestDelivery && to === REVIEWER) add("MessageDelivered", to, { via: "digest", recipient: to, messageIds: [id] }, { taskId: null });
    else add("MessageDelivered", from, { via: "inbox", messageId: id, performative, recipients: [to], held: [] });
  };
  const run = (agent: string, runId: string, work: () => void, evidence = ["2 passed, 0 failed"]) => {
    add("RunStarted", agent, { task: "…", requestId: null }, { runId });
    work();
    add("AgentFinished", agent, { result: { status: "done", summary: "did it", evidence, turns: 2, spent: 100 } }, { runId });
  };
  const tool = (agent: string, runId: string, name: string, writes: string | null, observations: object[] = [ok]) => {
    add("ToolDispatched", agent, { index: 0, callId: "c", tool: name, args: {}, attempt: 1, writes }, { runId });
    observations.forEach((observation, i) => {
      add("ToolReturned", agent, { index: 0, callId: "c", tool: name, attempt: i + 1, observation }, { runId });
    });
  };

  send(ORCH, CODER, "REQUEST");
  const flaky = [{ is_error: true, reason: "the test runner died (exit code 137)", recovery_hint: "again", transient: true }, ok];
  run(
    CODER,
    "run_coder",
    () => {
      tool(CODER, "run_coder", "edit_file", "parser.js");
      tool(CODER, "run_coder", "run_tests", null, crash.flakyRunner ? flaky : [ok]);
    },
    crash.prematureDone ? [] : undefined,
  );
  send(CODER, ORCH, "DONE");
  send(ORCH, REVIEWER, "REQUEST");
  if (!crash.silentReviewer) {
    run(REVIEWER, "run_reviewer", () => {});
    send(REVIEWER, ORCH, "ACCEPT");
  }
  send(ORCH, TESTER, "REQUEST");
  run(TESTER, "run_tester", () => {
    if (crash.duplicate) tool(TESTER, "run_tester", "edit_file", "parser.js");
    tool(TESTER, "run_tester", "run_tests", null);
  });
  send(TESTER, ORCH, "DONE");
  return events;
}

describe("diagnose", () => {
  it("finds nothing in the clean flight", () => {
    expect(diagnose(flight())).toEqual([]);
  });

  it("names each crash by its own signature, once, and nothing else", () => {
    const cases: [Crashes, string][] = [
      [{ duplicate: true }, "duplicate_work"],
      [{ silentReviewer: true }, "unanswered_request"],
      [{ silentReviewer: true, digestDelivery: true }, "unanswered_request"],
      [{ prematureDone: true }, "done_without_evidence"],
      [{ flakyRunner: true }, "transient_error_absorbed"],
    ];
    for (const [crash, signature] of cases) {
      const findings = diagnose(flight(crash));
      expect(
        findings.map((f) => f.signature),
        JSON.stringify(crash),
      ).toEqual([signature]);
    }
  });

  it("says who and what, and points at the events that show it", () => {
    const events = flight({ duplicate: true, silentReviewer: true, prematureDone: true, flakyRunner: true });
    const bySignature = Object.fromEntries(diagnose(events).map((f) => [f.signature, f]));
    expect(bySignature.duplicate_work).toMatchObject({ runIds: ["run_coder", "run_tester"], agents: [CODER, TESTER], summary: expect.stringContaining("wrote parser.js") });
    const edits = events.filter((e) => e.kind === "ToolDispatched" && (e.data as { writes: string | null }).writes);
    expect(bySignature.duplicate_work.eventIds).toEqual(edits.map((e) => e.id));
    expect(bySignature.unanswered_request).toMatchObject({ agents: [ORCH, REVIEWER], summary: expect.stringContaining("message 103") });
    expect(bySignature.done_without_evidence).toMatchObject({ runIds: ["run_coder"], agents: [CODER] });
    expect(bySignature.transient_error_absorbed).toMatchObject({ runIds: ["run_coder"], summary: expect.stringContaining("run_tests failed transiently") });
    expect(bySignature.transient_error_absorbed.eventIds).toHaveLength(2);
  });

  it("counts a reply on the thread, or a run started for the request, as an answer", () => {
    const silent = flight({ silentReviewer: true });
    const replied = [
      ...silent,
      {
        id: 999,
        t: new Date(0),
        kind: "MessageSent",
        actor: REVIEWER,
        runId: null,
        taskId: T1,
        turn: null,
        data: { messageId: 999, to: ORCH, performative: "INFORM", body: "looking" },
      },
    ];
    expect(diagnose(replied)).toEqual([]);
    const ran = [...silent, { id: 999, t: new Date(0), kind: "RunStarted", actor: REVIEWER, runId: "run_late", taskId: null, turn: 0, data: { requestId: 103 } }];
    expect(diagnose(ran)).toEqual([]);
  });
});

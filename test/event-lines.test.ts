// Every journal kind has a one-line renderer for the Journal, and the lines name people, tasks and rooms,
// never their ids (issue 15 item 4).
import { describe, expect, it } from "vitest";
import { EVENT_LINES, kindWords, lineOf, type Names } from "../components/journal/event-line";
import type { JournalEntry } from "../components/types";
import { EVENT_KINDS } from "../domain/journal/kinds";

const ADA = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const TASK = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const names: Names = { who: (id) => (id === ADA ? "ada" : "someone"), task: (id) => (id === TASK ? "#12" : "a task") };

function entry(kind: string, data: unknown, actorName: string | null = "coder"): JournalEntry {
  return { id: 1, v: 1, t: "2026-11-30T12:00:00.000Z", kind, actor: null, actorName, runId: null, taskId: TASK, turn: null, data };
}

describe("the journal's one-line renderers", () => {
  it("cover every kind of the journal", () => {
    expect(Object.keys(EVENT_LINES).sort()).toEqual([...EVENT_KINDS].sort());
  });

  it("name principals, tasks and rooms, never by id", () => {
    const lines = [
      lineOf(entry("MessageSent", { room: "general", seq: 3, messageId: 9, to: ADA, performative: "REQUEST", body: "please review", mentions: [], heldSeq: null }), names),
      lineOf(entry("TaskCreated", { number: 12, title: "Parse empty input", approverId: ADA, parentId: null, hasAcceptanceCriteria: true, leaseMinutes: null }), names),
      lineOf(entry("FocusWindowOpened", { agentId: ADA, taskId: TASK }), names),
      lineOf(entry("OutputAppended", { fence: 1, from: 1, count: 2, items: [] }), names),
      lineOf(entry("TeamStarted", { roles: ["orchestrator", "coder"], mode: "scripted" }, null), names),
    ];
    expect(lines).toEqual([
      "coder wrote to ada in #general (REQUEST): please review",
      "coder filed #12 Parse empty input (approver ada)",
      "coder began focusing on #12",
      "coder added 2 output items to #12",
      "The team started (orchestrator, coder; scripted)",
    ]);
    for (const line of lines) expect(line).not.toMatch(UUID);
  });

  it("say which tests a test run failed, where its runner names them", () => {
    const ran = (result: object) => lineOf(entry("ToolReturned", { callId: "c1", tool: "run_tests", attempt: 1, observation: { is_error: false, result } }), names);
    expect(ran({ exitCode: 1, summary: "3 passed, 1 failed (slug > dashes spaces) — read from TAP; exit code 1" })).toBe(
      "coder run_tests returned: 3 passed, 1 failed (slug > dashes spaces) — read from TAP; exit code 1",
    );
    // A result journalled before runs named their tests.
    expect(ran({ exitCode: 1, output: "…" })).toBe("coder run_tests returned");
  });

  it("name a forge by its host, never its token", () => {
    const forge = { host: "github.com", kind: "github", apiUrl: "https://api.github.com" };
    expect(lineOf(entry("ForgeHostAdded", forge, "ada"), names)).toBe("ada connected github.com");
    expect(lineOf(entry("ForgeTokenReplaced", forge, "ada"), names)).toBe("ada replaced the token for github.com");
    expect(lineOf(entry("ForgeHostRemoved", forge, "ada"), names)).toBe("ada disconnected github.com");
    expect(lineOf(entry("ForgeSettingsChanged", { ...forge, intakeLabel: "quorum", pollPullRequests: false }, "ada"), names)).toBe(
      'ada took issues labelled "quorum" as flight proposals, turned polling off for github.com',
    );
    expect(lineOf(entry("ForgeSettingsChanged", { ...forge, webhookSecret: "regenerated" }, "ada"), names)).toBe("ada regenerated the webhook secret for github.com");
  });

  it("say a proposed flight by its issue and repository", () => {
    const proposal = { proposalId: TASK, remote: "https://github.com/team/app.git", issue: 12, url: "https://github.com/team/app/issues/12" };
    expect(lineOf(entry("FlightProposed", { ...proposal, title: "Dates are off by one" }, "quorum"), names)).toBe(
      "quorum proposed a flight from issue #12 on team/app: Dates are off by one",
    );
    expect(lineOf(entry("FlightProposalStarted", { ...proposal, flightId: TASK, number: 3 }, "ada"), names)).toBe("ada started flight 3 from issue #12 on team/app");
    expect(lineOf(entry("FlightProposalDismissed", proposal, "ada"), names)).toBe("ada dismissed the flight proposed from issue #12 on team/app");
  });

  it("says the kind of an event it does not know (a newer server)", () => {
    expect(lineOf(entry("SomethingNew", {}), names)).toBe("coder: something new");
  });

  it("reads as a person would say it: no doubled names, no type names, no tool names where a phrase does", () => {
    const mine = { ...entry("MessageDelivered", { via: "digest", recipient: ADA, messageIds: [1, 2], room: "general" }, "ada"), actor: ADA };
    expect(lineOf(mine, names)).toBe("ada received a digest of 2 messages");
    expect(lineOf(entry("MessageDelivered", { via: "digest", recipient: ADA, messageIds: [1] }, "quorum"), names)).toBe("quorum sent ada a digest of 1 message");
    expect(lineOf(entry("BudgetDebited", { amount: 225, model: "scripted" }, "tester"), names)).toBe("tester spent 225 tokens following its script (no model)");
    expect(lineOf(entry("ModelResponded", { toolCalls: [{ name: "done" }], text: "" }), names)).toBe("coder decided it was done");
    expect(lineOf(entry("ModelResponded", { toolCalls: [{ name: "read_file" }, { name: "run_tests" }], text: "" }), names)).toBe("coder decided to use read_file, run_tests");
    expect(kindWords("FocusWindowClosed")).toBe("focus window closed");
  });
});

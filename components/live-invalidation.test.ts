// What a page refreshes live when an event is committed: the keys each notice makes stale.
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { staleQueries, type Notice } from "./live-invalidation";
import { queryKeys } from "./query-keys";

const TASK = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const AGENT = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

function notice(fields: Partial<Notice> & Pick<Notice, "kind">): Notice {
  return { id: 7, actor: AGENT, taskId: null, runId: null, room: null, ...fields };
}

describe("staleQueries", () => {
  it("a message on a task's thread refreshes the room, the board's drawer, presence, the roster and the explorer", () => {
    expect(staleQueries(notice({ kind: "MessageSent", room: "general", taskId: TASK, runId: "run_1" }))).toEqual([
      ["journal"],
      ["run", "run_1"],
      ["task-journal", TASK],
      ["roster"],
      ["agent"],
      ["messages", "general"],
      ["tasks", "detail", TASK],
      ["presence"],
      ["waiting"],
    ]);
  });

  it("a direct message with no room or task refreshes no room's messages", () => {
    expect(staleQueries(notice({ kind: "MessageSent" }))).toEqual([["journal"], ["roster"], ["agent"], ["presence"], ["waiting"]]);
  });

  it("what waits for the human refreshes when a task enters or leaves review and when an escalation opens or ends", () => {
    for (const kind of ["TaskSubmitted", "TaskReviewed", "TaskCancelled", "DecisionEscalated", "EscalationResolved", "DefaultAdopted"] as const) {
      expect(staleQueries(notice({ kind, taskId: TASK })), kind).toContainEqual(["waiting"]);
    }
    expect(staleQueries(notice({ kind: "TaskClaimed", taskId: TASK }))).not.toContainEqual(["waiting"]);
  });

  it("a flight's launch, plan, merges and spend refresh the Board's flights; a merge also the diffs", () => {
    for (const kind of ["FlightLaunched", "FlightPlanned", "FlightTaskAdded", "SuiteRan", "BudgetDebited", "BudgetAllowanceChanged"] as const) {
      expect(staleQueries(notice({ kind, taskId: TASK })), kind).toContainEqual(queryKeys.flights());
    }
    expect(staleQueries(notice({ kind: "TaskIntegrated", taskId: TASK }))).toContainEqual(queryKeys.tasks());
    // The flights live under the board's family: a task that moves refreshes its flight's counts.
    expect(queryKeys.flights().slice(0, 1)).toEqual(queryKeys.tasks());
  });

  it("a claim refreshes the board and the agent's numbers", () => {
    expect(staleQueries(notice({ kind: "TaskClaimed", taskId: TASK }))).toEqual([["journal"], ["task-journal", TASK], ["roster"], ["agent"], ["tasks"]]);
  });

  it("a debit refreshes the bill, the roster, the agent pages and the flights' spend", () => {
    expect(staleQueries(notice({ kind: "BudgetDebited", runId: "run_2", taskId: TASK }))).toEqual([
      ["journal"],
      ["run", "run_2"],
      ["task-journal", TASK],
      ["bill"],
      ["roster"],
      ["agent"],
      ["tasks", "flights"],
    ]);
  });

  it("a granted reservation refreshes the reservation lists", () => {
    expect(staleQueries(notice({ kind: "ReservationGranted" }))).toEqual([["journal"], ["reservations"]]);
  });

  it("a forge connected, re-keyed or removed refreshes the Settings page's forges", () => {
    for (const kind of ["ForgeHostAdded", "ForgeTokenReplaced", "ForgeHostRemoved"] as const) {
      expect(staleQueries(notice({ kind })), kind).toEqual([["journal"], queryKeys.forges()]);
    }
  });

  it("a forge's settings changed refresh its Settings; a flight proposed or decided, what waits for the human", () => {
    expect(staleQueries(notice({ kind: "ForgeSettingsChanged" }))).toEqual([["journal"], queryKeys.forges()]);
    expect(staleQueries(notice({ kind: "FlightProposed" }))).toEqual([["journal"], queryKeys.waiting()]);
    expect(staleQueries(notice({ kind: "FlightProposalDismissed" }))).toEqual([["journal"], queryKeys.waiting()]);
    expect(staleQueries(notice({ kind: "FlightProposalStarted" }))).toEqual([["journal"], queryKeys.waiting(), queryKeys.flights()]);
  });

  it("a kind with no page of its own refreshes only the journal", () => {
    expect(staleQueries(notice({ kind: "ModelCalled", runId: "run_3" }))).toEqual([["journal"], ["run", "run_3"]]);
  });

  it("a kind this browser does not know (an older or newer server) still refreshes the journal", () => {
    const unknown = notice({ kind: "SomethingNew" as Notice["kind"], taskId: TASK });
    expect(staleQueries(unknown)).toEqual([["journal"], ["task-journal", TASK]]);
    // Nor is a name of Object.prototype taken for an entry.
    expect(staleQueries(notice({ kind: "constructor" as Notice["kind"] }))).toEqual([["journal"]]);
  });

  it("marks stale exactly the pages' caches the event touches (react-query matches keys by prefix)", async () => {
    const client = new QueryClient();
    const pages = [
      queryKeys.messages("general"),
      queryKeys.messages("random"),
      queryKeys.taskDetail(TASK),
      queryKeys.taskColumn("ready"),
      queryKeys.roomPresence("general"),
      queryKeys.journalList("limit=100", null),
      queryKeys.taskThread(TASK),
      queryKeys.billSummary(),
      queryKeys.reservationList(""),
    ];
    for (const key of pages) client.setQueryData(key, {});
    for (const key of staleQueries(notice({ kind: "MessageSent", room: "general", taskId: TASK }))) await client.invalidateQueries({ queryKey: key });
    const stale = pages.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => key.join("/"));
    expect(stale).toEqual([`messages/general`, `tasks/detail/${TASK}`, `presence/general`, `journal/list/limit=100/`, `task-journal/${TASK}/thread`]);
  });
});

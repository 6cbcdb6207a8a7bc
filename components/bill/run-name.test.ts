// The Bill's runs table names each run by its agent and task, never by its id.
import { describe, expect, it } from "vitest";
import { runName } from "./run-name";

const onTask = { agentName: "coder-1", taskId: "11111111-1111-4111-8111-111111111111", taskNumber: 12, taskTitle: "Parse the config" };

describe("a run's name on the Bill", () => {
  it("says who ran it and on which task, and leaves the agent out on the agent's own page", () => {
    expect(runName(onTask, true)).toBe("coder-1 on #12 Parse the config");
    expect(runName(onTask, false)).toBe("#12 Parse the config");
  });

  it("says so when the run had no task, its task is gone, or its agent is unknown", () => {
    const noTask = { ...onTask, taskId: null, taskNumber: null, taskTitle: null };
    expect(runName(noTask, true)).toBe("coder-1, without a task");
    expect(runName(noTask, false)).toBe("Without a task");
    expect(runName({ ...onTask, taskNumber: null, taskTitle: null }, true)).toBe("coder-1 on a task no longer on the board");
    expect(runName({ ...onTask, agentName: null }, true)).toBe("An agent on #12 Parse the config");
  });
});

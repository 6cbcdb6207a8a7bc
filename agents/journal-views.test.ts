// The journal views read from the database: a task's thread, its audit, a run's resume point, and
// diagnose over a task — a REQUEST answered by a run is clean, one left unanswered until a deadline chased it is named.
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { appendEvent } from "../domain/journal/append";
import { makeReadyTask } from "../test/fixtures/board";
import { loadAudit } from "../domain/tasks/audit";
import { loadResumePoint } from "../domain/runs/resume-point";
import { loadThread } from "../domain/tasks/thread";
import { postMessage } from "../domain/rooms/post-message";
import { makeAgent, makeHuman } from "../test/helpers";
import { diagnoseCommand } from "../bin/diagnose";
import { scriptedClient } from "./model/scripted";
import { startRun } from "./run";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";

const clock = manualClock();

describe("journal views over the database", () => {
  it("threads a task's request, its run and the reply, audits the evidence, and diagnoses it clean", async () => {
    const db = getDb();
    const [human, coder] = await Promise.all([makeHuman(), makeAgent()]);
    const { id: taskId } = await makeReadyTask(human, {}, clock);
    const request = await postMessage(db, human, "general", { body: "please fix parse('')", performative: "REQUEST", to: coder.name, taskId }, clock);
    const { runId } = await startRun(db, {
      agent: coder,
      client: scriptedClient(FIX_SCRIPT),
      tools: scratchTools({ quick: true }),
      root: makeScratchRepo(),
      task: FIX_TASK,
      system: CODER_SYSTEM,
      taskId,
      requestId: request.id,
      clock,
    });
    await postMessage(db, coder, "general", { body: "fixed: parse('') returns []", performative: "DONE", to: human.name, taskId }, clock);

    const thread = await loadThread(db, taskId, human);
    expect(thread.map((e) => [e.type, e.type === "message" ? e.performative : e.kind])).toEqual([
      ["transition", "TaskCreated"],
      ["message", "REQUEST"],
      ["run", "RunStarted"],
      ["run", "AgentFinished"],
      ["message", "DONE"],
    ]);
    expect(thread[3]).toMatchObject({ runId, status: "done", summary: "parse('') returns []", actorName: coder.name });

    const audit = await loadAudit(db, taskId, human);
    expect(audit.submissions.map((s) => [s.via, s.byName, s.evidence])).toEqual([
      ["run", coder.name, ["node --test: 2 passed, 0 failed"]],
      ["message", coder.name, []],
    ]);
    expect(audit.verdicts).toEqual([]);
    expect(audit.accepted).toBe(false);

    expect(await loadResumePoint(db, runId)).toMatchObject({ taskId, turn: 6, spent: 1205, cursor: { at: "finished" } });
    const lines: string[] = [];
    expect(await diagnoseCommand(db, { task: taskId }, (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toMatch(/^#\d+: clean — no failure mode in \d+ events$/);
  });

  it("names a REQUEST that got neither a reply nor a run once a deadline chased it (FM-2.5), not before", async () => {
    const db = getDb();
    const [human, reviewer] = await Promise.all([makeHuman(), makeAgent(undefined, "reviewer")]);
    const { id: taskId, number } = await makeReadyTask(human, {}, clock);
    await postMessage(db, human, "general", { body: "please review the diff", performative: "REQUEST", to: reviewer.name, taskId }, clock);
    const lines: string[] = [];
    // Delivered a moment ago is not yet ignored.
    expect(await diagnoseCommand(db, { task: taskId }, (line) => lines.push(line))).toBe(0);
    await appendEvent(db, { kind: "ReplyReasked", actor: null, taskId, t: clock.now(), data: { awaiting: reviewer.id } });
    lines.length = 0;
    expect(await diagnoseCommand(db, { task: `#${number}` }, (line) => lines.push(line))).toBe(2);
    expect(lines[1]).toBe(
      `- FM-2.5 Ignored other agent's input (medium; inter-agent misalignment): ${reviewer.name} did not answer ${human.name}'s REQUEST on #${number}, and was re-asked (events ${lines[1].match(/events ([\d, ]+)\)$/)![1]})`,
    );
  });
});

// The context policy by hand: what is always kept, which tail survives, and the marker for the rest.
import { describe, expect, it } from "vitest";
import type { Step } from "../domain/runs/resume-point";
import { assembleContext, NUDGE } from "./context";

// One character, one token: every figure below can be checked with a pencil.
const chars = (text: string) => text.length;
const prose = (turn: number, length: number): Step => ({
  turn,
  mail: [],
  response: { text: "x".repeat(length), toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, estimated: false }, model: "m" },
  observations: [],
});
const current = (turn: number): Step => ({ turn, mail: [], response: null, observations: [] });

const system = "s".repeat(40);
const task = "t".repeat(100);
const N = NUDGE.length;
const head = 40 + 4 + ("Your task:\n".length + 100 + 4); // 159
const proseCost = (length: number) => length + 4 + N + 4; // the answer, then the nudge it earned
const marker = (n: number) => `[${n} earlier step${n === 1 ? "" : "s"} dropped to fit the context]`;

describe("assembleContext", () => {
  // Five earlier steps of 1, 70, 60, 50 and 40 characters (oldest first), then the turn being assembled.
  const steps = [prose(1, 1), prose(2, 70), prose(3, 60), prose(4, 50), prose(5, 40), current(6)];

  it("keeps the newest tail that fits, drops the oldest first (contiguously) and says how many", () => {
    // Room for steps 4 and 3, and 5 tokens more than step 1 would need — but step 2 does not fit,
    // so step 1 goes too: the kept history is always one unbroken recent tail.
    const room = proseCost(50) + proseCost(60) + proseCost(1) + 5;
    const limit = head + proseCost(40) + (marker(4).length + 4) + room;
    const context = assembleContext({ principles: [], system, task, steps, limit }, chars);
    expect(context.droppedSteps).toBe(2);
    expect(context.messages.map((m) => [m.role, m.content.length])).toEqual([
      ["system", 40],
      ["user", 111],
      ["user", marker(2).length],
      ["assistant", 60],
      ["user", N],
      ["assistant", 50],
      ["user", N],
      ["assistant", 40],
      ["user", N],
    ]);
    expect(context.messages[2].content).toBe("[2 earlier steps dropped to fit the context]");
    expect(context.estimatedTokens).toBe(head + (marker(2).length + 4) + proseCost(60) + proseCost(50) + proseCost(40));
  });

  it("keeps everything, with no marker, when it all fits", () => {
    const limit = head + [1, 70, 60, 50, 40].reduce((sum, n) => sum + proseCost(n), 0) + marker(4).length + 4;
    const context = assembleContext({ principles: [], system, task, steps, limit }, chars);
    expect(context.droppedSteps).toBe(0);
    expect(context.messages).toHaveLength(2 + 5 * 2);
    expect(context.messages.some((m) => m.content.includes("dropped"))).toBe(false);
  });

  it("never cuts the principles, the system prompt, the task or the latest step, even over the limit", () => {
    const context = assembleContext({ principles: ["Run the tests before done."], system, task, steps, limit: 10 }, chars);
    expect(context.droppedSteps).toBe(4);
    expect(context.messages[0].content).toBe(`Principles of this team (learnt from past work; follow them):\n- Run the tests before done.\n\n${system}`);
    expect(context.messages[1].content).toBe(`Your task:\n${task}`);
    expect(context.messages[2].content).toBe(marker(4));
    expect(context.messages.slice(3).map((m) => m.content.length)).toEqual([40, N]);
    expect(context.estimatedTokens).toBeGreaterThan(10);
  });

  it("pairs every tool call with its observation and puts this turn's mail last", () => {
    const withTools: Step = {
      turn: 1,
      mail: [],
      response: {
        text: "",
        toolCalls: [
          { id: "a", name: "read_file", arguments: { path: "x" } },
          { id: "b", name: "run_tests", arguments: {} },
        ],
        usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, estimated: false },
        model: "m",
      },
      observations: [
        { is_error: false, result: { content: "hi" } },
        { is_error: true, reason: "died", recovery_hint: "again", transient: true },
      ],
    };
    const mail = { messageId: 7, room: "general", from: "u1", fromName: "ada", performative: "REQUEST", taskId: null, body: "also add a test" };
    const context = assembleContext({ principles: [], system, task, steps: [withTools, { ...current(2), mail: [mail] }], limit: 100_000 }, chars);
    expect(context.messages.slice(2)).toEqual([
      { role: "assistant", content: "", toolCalls: withTools.response!.toolCalls },
      { role: "tool", toolCallId: "a", name: "read_file", content: JSON.stringify(withTools.observations[0]), isError: false },
      { role: "tool", toolCallId: "b", name: "run_tests", content: JSON.stringify(withTools.observations[1]), isError: true },
      { role: "user", content: "Mail delivered to you:\n- from ada (REQUEST, #general): also add a test" },
    ]);
  });
});

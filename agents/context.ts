// The context policy, whole: what the model sees each turn, in what order, and what is cut first.
//
//   1. Always: the principles and the system prompt (one system message), then the task.
//   2. Always: the newest completed step (the latest observations) and this turn's delivered mail.
//   3. Then as much of the older history as fits the token limit, newest first; the oldest steps
//      go first, whole (a tool call never loses its result), and a marker says how many went.
//
// The limit bounds the history kept, not the window: parts 1 and 2 are never cut, so a huge task
// or observation can exceed it (tools cap their own output for that reason).
import type { Mail } from "../domain/runs/run-events";
import type { Step } from "../domain/runs/resume-point";
import type { ChatMessage } from "./model/model-client";

export interface ContextInput {
  principles: string[];
  system: string;
  task: string;
  /** The run's steps in order; the last one is the turn being assembled (its mail, no response yet). */
  steps: Step[];
  /** Tokens, as `estimate` counts them. */
  limit: number;
}

export interface AssembledContext {
  messages: ChatMessage[];
  estimatedTokens: number;
  droppedSteps: number;
}

export const NUDGE = "You answered in prose without calling a tool. Act through a tool call; when the task is finished, call `done` with a summary and the evidence.";

function mailMessage(mail: Mail[]): ChatMessage {
  const lines = mail.map((m) => {
    const tags = [m.performative, m.taskId ? `task ${m.taskId}` : null, `#${m.room}`].filter(Boolean).join(", ");
    return `- from ${m.fromName ?? m.from} (${tags}): ${m.body}`;
  });
  return { role: "user", content: `Mail delivered to you:\n${lines.join("\n")}` };
}

/** One step as the model saw it: its mail, its answer, each call's observation, and the nudge after prose. */
function renderStep(step: Step): ChatMessage[] {
  const out: ChatMessage[] = step.mail.length ? [mailMessage(step.mail)] : [];
  if (!step.response) return out;
  const { text, toolCalls } = step.response;
  out.push({ role: "assistant", content: text, toolCalls });
  toolCalls.forEach((call, i) => {
    const observation = step.observations[i];
    out.push({
      role: "tool",
      toolCallId: call.id,
      name: call.name,
      content: JSON.stringify(observation ?? { is_error: true, reason: "not run", recovery_hint: "call it again if it is still needed" }),
      isError: observation?.is_error ?? true,
    });
  });
  if (toolCalls.length === 0) out.push({ role: "user", content: NUDGE });
  return out;
}

function principlesAndSystem(principles: string[], system: string): string {
  if (principles.length === 0) return system;
  return `Principles of this team (learnt from past work; follow them):\n${principles.map((p) => `- ${p}`).join("\n")}\n\n${system}`;
}

export function assembleContext(input: ContextInput, estimate: (text: string) => number): AssembledContext {
  const cost = (messages: ChatMessage[]) =>
    messages.reduce((sum, m) => sum + estimate(m.content) + (m.role === "assistant" && m.toolCalls.length ? estimate(JSON.stringify(m.toolCalls)) : 0) + 4, 0);
  const head: ChatMessage[] = [
    { role: "system", content: principlesAndSystem(input.principles, input.system) },
    { role: "user", content: `Your task:\n${input.task}` },
  ];
  const rendered = input.steps.map(renderStep);
  const current = rendered.pop() ?? [];
  const latest = rendered.pop() ?? [];
  const marker = (n: number): ChatMessage => ({ role: "user", content: `[${n} earlier step${n === 1 ? "" : "s"} dropped to fit the context]` });
  let room = input.limit - cost(head) - cost(latest) - cost(current) - cost([marker(rendered.length)]);
  const kept: ChatMessage[][] = [];
  for (let i = rendered.length - 1; i >= 0; i--) {
    const size = cost(rendered[i]);
    if (size > room) break;
    kept.unshift(rendered[i]);
    room -= size;
  }
  const droppedSteps = rendered.length - kept.length;
  const messages = [...head, ...(droppedSteps ? [marker(droppedSteps)] : []), ...kept.flat(), ...latest, ...current];
  return { messages, estimatedTokens: cost(messages), droppedSteps };
}

// A stand-in model server in its own process: it speaks the OpenAI chat-completions wire
// (POST /v1/chat/completions) and the Anthropic messages wire (POST /v1/messages), answering the built-in
// team's roles with their scripted steps as tool calls and reporting usage. A fault can be set at start
// (MODEL_FAULT, JSON) or at any time (POST /fault) for the failure drills; GET /usage sums what it reported.
// A playbook (MODEL_PLAYBOOK, JSON, or POST /playbook) replaces the demo's scripts for a fixture repository,
// and GET /requests lists every request as the brain read it (its messages' text and its cache marks included),
// so a test can check what a model was shown. Each wire reports prompt-cache reads as its vendor does
// (test/fixtures/model-cache.ts).
// Usage: node --import tsx test/processes/model-server.ts   → prints "listening http://127.0.0.1:PORT"
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerFor, toAnthropic, toOpenAi, usageFor, viewOfAnthropic, viewOfOpenAi } from "../fixtures/model-brain";
import { promptCache } from "../fixtures/model-cache";
import { type Playbook, playbookBrain, roleOf } from "../fixtures/model-playbook";

export type Fault =
  | { mode: "ok" }
  /** Answers `status` to the next `count` requests (every one when absent), then recovers. */
  | { mode: "status"; status: number; count?: number; retryAfter?: number }
  | { mode: "malformed" }
  | { mode: "prose" }
  | { mode: "stall"; ms: number }
  | { mode: "bad-args" };

let fault: Fault = process.env.MODEL_FAULT ? (JSON.parse(process.env.MODEL_FAULT) as Fault) : { mode: "ok" };
const served = { requests: 0, answered: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const cache = promptCache();
let playbook = playbookBrain(process.env.MODEL_PLAYBOOK ? (JSON.parse(process.env.MODEL_PLAYBOOK) as Playbook) : {});
/** Each request as read: which wire, the role, the turn, the task and every message's text. */
const seen: { wire: "openai" | "anthropic"; model: string; role: string | null; turn: number; task: string; texts: string[]; cacheMarks: string[] }[] = [];

/** Every text a request holds (system, user and tool messages, and tool results), in order. */
function textsOf(body: { system?: unknown; messages: { content?: unknown }[] }): string[] {
  const flat = (content: unknown): string[] => {
    if (typeof content === "string") return [content];
    if (Array.isArray(content)) return content.flatMap((block: { text?: string; content?: unknown }) => [...(block.text ? [block.text] : []), ...flat(block.content)]);
    return [];
  };
  return [...flat(body.system), ...body.messages.flatMap((m) => flat(m.content))];
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk) => (raw += chunk));
  req.on("end", () => {
    if (req.method === "GET" && req.url === "/usage") return send(res, 200, served);
    if (req.method === "GET" && req.url === "/requests") return send(res, 200, seen);
    if (req.method === "POST" && req.url === "/playbook") {
      playbook = playbookBrain(JSON.parse(raw) as Playbook);
      return send(res, 200, { ok: true });
    }
    if (req.method === "POST" && req.url === "/fault") {
      fault = JSON.parse(raw) as Fault;
      return send(res, 200, { fault });
    }
    const anthropic = req.url === "/v1/messages";
    if (req.method !== "POST" || !(anthropic || req.url === "/v1/chat/completions")) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    served.requests++;
    // Typed as both the brain and the cache read it; the stand-in trusts its clients.
    const body = JSON.parse(raw) as { model: string; system?: string; tools?: []; messages: { role: string; content?: never }[] };
    const view = anthropic ? viewOfAnthropic(body) : viewOfOpenAi(body);
    seen.push({
      wire: anthropic ? "anthropic" : "openai",
      model: body.model,
      role: roleOf(view),
      turn: view.turn,
      task: view.task,
      texts: textsOf(body),
      cacheMarks: anthropic ? cache.marksOf(body) : [],
    });
    if (fault.mode === "status") {
      const { status } = fault;
      if (fault.count !== undefined && --fault.count <= 0) fault = { mode: "ok" };
      return send(
        res,
        status,
        { error: { type: "server_error", message: `stand-in fault: HTTP ${status}` } },
        fault.mode === "status" && fault.retryAfter ? { "retry-after": String(fault.retryAfter) } : {},
      );
    }
    if (fault.mode === "malformed") return send(res, 200, '{"choices": [ {"message": ');
    const planned = playbook.answer(view, textsOf(body));
    let entry = planned ?? answerFor(view);
    if (fault.mode === "prose") entry = { text: "I would start by reading the code, then think about the goal carefully." };
    if (fault.mode === "bad-args") entry = { toolCalls: (entry.toolCalls ?? []).map((call) => ({ ...call, arguments: { bogus: 1 } })) };
    const usage = anthropic ? cache.anthropic(body, usageFor(view)) : cache.openai(body, usageFor(view));
    const answer = () => {
      if (res.destroyed) return;
      served.answered++;
      served.input += usage.input;
      served.output += usage.output;
      served.cacheRead += usage.cacheRead ?? 0;
      served.cacheWrite += usage.cacheWrite ?? 0;
      send(res, 200, anthropic ? toAnthropic(entry, usage, body.model) : toOpenAi(entry, usage, body.model));
    };
    const delayMs = fault.mode === "stall" ? fault.ms : (planned?.delayMs ?? 0);
    if (delayMs > 0) {
      const timer = setTimeout(answer, delayMs);
      res.on("close", () => clearTimeout(timer));
    } else answer();
  });
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => process.exit(0)));
// The parent holds our stdin open; if it dies without stopping us, we go too.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

// Checks the configured model before the team uses it: reachable, key accepted, model known, and a
// trivial tool call works. Each problem is one line naming the variable to fix.
import { modelClientFromEnv } from "./from-env";
import { ModelError, type ModelClient } from "./model-client";
import type { RetryPolicy } from "./retry";

type Env = Record<string, string | undefined>;

export interface ProbeResult {
  /** The client's name (`openai-compatible:<model>`, `anthropic:<model>`), or null when none is configured. */
  model: string | null;
  ok: boolean;
  /** One line per problem, each naming the variable to fix; empty when the model works. */
  problems: string[];
  /** What a person reads when all is well. */
  summary: string;
}

/** The probe asks once, quickly: a person is waiting for the answer. */
const PROBE_RETRY: RetryPolicy = {
  maxAttempts: 2,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
  timeoutMs: 30_000,
  budgetMs: 45_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const PING = {
  name: "ping",
  description: "Answers pong. Call it once with ok set to true.",
  parameters: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  idempotent: true,
};

/** The variables behind a client: its key and its base URL. */
function variablesOf(client: ModelClient, env: Env) {
  const anthropic = client.name.startsWith("anthropic:");
  const wire = anthropic ? "ANTHROPIC" : "OPENAI";
  const baseUrl = env[`QUORUM_${wire}_BASE_URL`] || (anthropic ? "https://api.anthropic.com" : "https://api.openai.com/v1");
  return { key: `QUORUM_${wire}_API_KEY`, base: `QUORUM_${wire}_BASE_URL`, baseUrl, wireName: anthropic ? "Anthropic messages" : "OpenAI chat-completions" };
}

/** One line about a failed call, naming what to change. */
export function problemOf(error: unknown, client: ModelClient, env: Env): string {
  const vars = variablesOf(client, env);
  const model = env.QUORUM_MODEL ?? client.name;
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ModelError)) return `${client.name}: ${message}`;
  const { status } = error;
  if (status === 401 || status === 403) return `${vars.key} was refused (HTTP ${status})`;
  if (status === 404) return `QUORUM_MODEL=${model} is not known at ${vars.baseUrl} (HTTP 404): check the model's name and ${vars.base}`;
  if (status === null) return `${vars.base}=${vars.baseUrl} is unreachable: ${message.replace(/^[^:]+:[^:]*: /, "")}`;
  if (status === 429 || status >= 500) return `${vars.base}=${vars.baseUrl} answered HTTP ${status} (overloaded or failing): try again later`;
  if (/not JSON|malformed/.test(message)) return `${vars.base}=${vars.baseUrl} does not answer in the ${vars.wireName} format: ${message.slice(0, 160)}`;
  return `QUORUM_MODEL=${model} was refused (HTTP ${status}): ${message.slice(0, 200)}`;
}

/** Probes the model the environment configures; `retry` is for tests. */
export async function probeModel(env: Env = process.env, retry: RetryPolicy = PROBE_RETRY): Promise<ProbeResult> {
  let client: ModelClient | null;
  try {
    client = modelClientFromEnv(env, retry);
  } catch (error) {
    return { model: null, ok: false, problems: [(error as Error).message.split("\n")[0]], summary: "" };
  }
  if (!client) return { model: null, ok: true, problems: [], summary: "No model is configured (QUORUM_MODEL): the team runs scripted." };
  try {
    const response = await client.complete(
      [
        { role: "system", content: "You are a probe checking that tool calling works. Call the ping tool once." },
        { role: "user", content: "Call ping with ok set to true." },
      ],
      [PING],
    );
    const called = response.toolCalls.find((call) => call.name === PING.name);
    if (!called) {
      const said = response.toolCalls.length ? `called ${response.toolCalls.map((c) => c.name).join(", ")}` : `answered in prose (“${response.text.slice(0, 80)}”)`;
      return {
        model: client.name,
        ok: false,
        problems: [`QUORUM_MODEL=${env.QUORUM_MODEL} ${said} instead of calling the ping tool: the team needs a model with tool calling`],
        summary: "",
      };
    }
    return { model: client.name, ok: true, problems: [], summary: `The model ${client.name} answers and calls tools (served as ${response.model}).` };
  } catch (error) {
    return { model: client.name, ok: false, problems: [problemOf(error, client, env)], summary: "" };
  }
}

/** The lines a command prints: the summary, or each problem. */
export function probeLines(result: ProbeResult): string[] {
  if (result.ok) return [result.summary];
  return result.problems.map((line) => `Model check: ${line}`);
}

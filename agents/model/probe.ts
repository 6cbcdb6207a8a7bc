// Checks each configured model (one per distinct QUORUM_MODEL / QUORUM_MODEL_<ROLE>) before the team uses it:
// reachable, key accepted, model known, and a trivial tool call works. Each problem is one line naming the
// variable to fix; each working model's line says which roles use it.
import { MODEL_ROLES, roleModelsFromEnv, type DistinctModel, type ModelRole } from "./from-env";
import { ModelError, type ModelClient } from "./model-client";
import type { RetryPolicy } from "./retry";

type Env = Readonly<Record<string, string | undefined>>;

export interface ProbeResult {
  /** The first model's client name (`openai-compatible:<model>`, `anthropic:<model>`), or null when none is configured. */
  model: string | null;
  /** Every model works. */
  ok: boolean;
  /** One line per problem, each naming the variable to fix (and, with several models, the roles it concerns). */
  problems: string[];
  /** What a person reads about the models that work, a line each. */
  summary: string;
  /** Each distinct model, probed. */
  models: ModelProbe[];
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

/** One line about a failed call, naming what to change (the variables as the client describes its setup). */
export function problemOf(error: unknown, client: ModelClient, configured: { variable: string; spec: string }): string {
  const model = `${configured.variable}=${configured.spec}`;
  const message = error instanceof Error ? error.message : String(error);
  const setup = client.setup;
  if (!(error instanceof ModelError) || !setup) return `${client.name}: ${message}`;
  const { status } = error;
  const server = `${setup.baseUrlVariable}=${setup.baseUrl}`;
  if (status === 401 || status === 403) return `${setup.keyVariable} was refused (HTTP ${status})`;
  if (status === 404) return `${model} is not known at ${setup.baseUrl} (HTTP 404): check the model's name and ${setup.baseUrlVariable}`;
  if (status === null) return `${server} is unreachable: ${message.replace(/^[^:]+:[^:]*: /, "")}`;
  if (status === 429 || status >= 500) return `${server} answered HTTP ${status} (overloaded or failing): try again later`;
  if (/not JSON|malformed/.test(message)) return `${server} does not answer in the ${setup.wireOwner} ${setup.wire} format: ${message.slice(0, 160)}`;
  return `${model} was refused (HTTP ${status}): ${message.slice(0, 200)}`;
}

/** One distinct model, probed: the roles that use it, and its problem or its summary. */
export interface ModelProbe {
  /** The client's name (`openai-compatible:<model>`, `anthropic:<model>`). */
  model: string;
  /** The variable that configures it (QUORUM_MODEL or QUORUM_MODEL_<ROLE>). */
  variable: string;
  roles: ModelRole[];
  ok: boolean;
  problem: string | null;
  summary: string;
}

/** "every role", "the reviewer", "the orchestrator, coder and tester". */
function rolesInWords(roles: readonly ModelRole[]): string {
  if (roles.length === MODEL_ROLES.length) return "every role";
  const words = roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(", ")} and ${roles.at(-1)}`;
  return `the ${words}`;
}

async function probeOne(model: DistinctModel): Promise<ModelProbe> {
  const { client, variable, spec, roles } = model;
  const base = { model: client.name, variable, roles };
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
      return { ...base, ok: false, problem: `${variable}=${spec} ${said} instead of calling the ping tool: the team needs a model with tool calling`, summary: "" };
    }
    return { ...base, ok: true, problem: null, summary: `The model ${client.name} answers and calls tools (served as ${response.model}), for ${rolesInWords(roles)}.` };
  } catch (error) {
    return { ...base, ok: false, problem: problemOf(error, client, model), summary: "" };
  }
}

/** Probes every distinct model the environment configures (QUORUM_MODEL, QUORUM_MODEL_<ROLE>); `retry` is for tests. */
export async function probeModel(env: Env, retry: RetryPolicy = PROBE_RETRY): Promise<ProbeResult> {
  let distinct: DistinctModel[];
  try {
    distinct = roleModelsFromEnv(env, retry).distinct;
  } catch (error) {
    return { model: null, ok: false, problems: [(error as Error).message.split("\n")[0]], summary: "", models: [] };
  }
  if (distinct.length === 0) return { model: null, ok: true, problems: [], summary: "No model is configured (QUORUM_MODEL): the team runs scripted.", models: [] };
  const models = await Promise.all(distinct.map(probeOne));
  // With several models, each problem says whose model it is.
  const whose = (m: ModelProbe) => (models.length > 1 ? `(${m.roles.join(", ")}) ` : "");
  return {
    model: models[0].model,
    ok: models.every((m) => m.ok),
    problems: models.filter((m) => m.problem).map((m) => `${whose(m)}${m.problem}`),
    summary: models
      .filter((m) => m.ok)
      .map((m) => m.summary)
      .join("\n"),
    models,
  };
}

/** The lines a command prints: each working model's summary, then each problem. */
export function probeLines(result: ProbeResult): string[] {
  return [...(result.summary ? result.summary.split("\n") : []), ...result.problems.map((line) => `Model check: ${line}`)];
}

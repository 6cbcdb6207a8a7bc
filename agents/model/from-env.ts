// Chooses the live model clients from the environment: one per role (QUORUM_MODEL, overridden per role by
// QUORUM_MODEL_<ROLE>), one client per distinct model; null when none is configured (then the roles run scripted).
import { anthropicClient } from "./anthropic";
import type { ModelClient } from "./model-client";
import { openAiCompatibleClient } from "./openai-compatible";
import { defaultRetryPolicy, type RetryPolicy } from "./retry";

/** Quorum's variables (domain/config.ts hands over the QUORUM_* ones); this module alone knows which configure a model. */
type Env = Readonly<Record<string, string | undefined>>;

/** The roles a model may be chosen for, as the built-in team names them. */
export const MODEL_ROLES = ["orchestrator", "coder", "reviewer", "tester"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** QUORUM_MODEL_CODER and its siblings: the variable that overrides QUORUM_MODEL for one role. */
export const roleVariable = (role: ModelRole) => `QUORUM_MODEL_${role.toUpperCase()}`;

/** QUORUM_MODEL_* variables that are settings of every model, not roles. */
const SHARED_SETTINGS = new Set(["QUORUM_MODEL_MAX_TOKENS", "QUORUM_MODEL_TIMEOUT_MS"]);

export const MODEL_ENV_HELP = `QUORUM_MODEL=openai:<model> (QUORUM_OPENAI_API_KEY; QUORUM_OPENAI_BASE_URL for vLLM, llama.cpp or Ollama),
QUORUM_MODEL=anthropic:<model> (QUORUM_ANTHROPIC_API_KEY; QUORUM_ANTHROPIC_BASE_URL optional),
or QUORUM_OPENAI_BASE_URL with QUORUM_MODEL=<model as that server names it>; QUORUM_MODEL_<ROLE> (ORCHESTRATOR, CODER, REVIEWER, TESTER)
overrides it for one role, in the same syntax; QUORUM_MODEL_MAX_TOKENS and QUORUM_MODEL_TIMEOUT_MS (one try's ceiling) optional`;

function misconfigured(message: string): Error {
  return new Error(`${message}\nConfigure a model with ${MODEL_ENV_HELP}`);
}

/** The settings every client shares: the output ceiling and one try's timeout. */
function sharedSettings(env: Env, retry?: RetryPolicy): { maxTokens?: number; retry?: RetryPolicy } {
  const maxTokens = env.QUORUM_MODEL_MAX_TOKENS ? Number(env.QUORUM_MODEL_MAX_TOKENS) : undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw misconfigured(`QUORUM_MODEL_MAX_TOKENS must be a positive integer, not '${env.QUORUM_MODEL_MAX_TOKENS}'.`);
  }
  const timeoutMs = env.QUORUM_MODEL_TIMEOUT_MS ? Number(env.QUORUM_MODEL_TIMEOUT_MS) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw misconfigured(`QUORUM_MODEL_TIMEOUT_MS must be a positive whole number of milliseconds, not '${env.QUORUM_MODEL_TIMEOUT_MS}'.`);
  }
  return { maxTokens, retry: timeoutMs !== undefined ? { ...(retry ?? defaultRetryPolicy), timeoutMs } : retry };
}

/** The client one variable's value (`spec`) names; every error names `variable`. */
function clientOf(variable: string, spec: string, env: Env, shared: { maxTokens?: number; retry?: RetryPolicy }): ModelClient {
  const baseUrl = env.QUORUM_OPENAI_BASE_URL?.trim();
  const { maxTokens, retry } = shared;
  // Only these two prefixes are vendors: a bare name may hold colons of its own (`llama3.1:8b`).
  const [prefix, ...rest] = spec.split(":");
  const model = rest.join(":");
  if (prefix === "anthropic") {
    if (!model) throw misconfigured(`${variable}=anthropic: needs a model name after the colon.`);
    const apiKey = env.QUORUM_ANTHROPIC_API_KEY;
    if (!apiKey) throw misconfigured(`${variable}=${spec} needs QUORUM_ANTHROPIC_API_KEY.`);
    return anthropicClient({ apiKey, model, baseUrl: env.QUORUM_ANTHROPIC_BASE_URL || undefined, maxTokens, retry });
  }
  if (prefix === "openai") {
    if (!model) throw misconfigured(`${variable}=openai: needs a model name after the colon.`);
    const apiKey = env.QUORUM_OPENAI_API_KEY || undefined;
    if (!baseUrl && !apiKey) throw misconfigured(`${variable}=${spec} needs QUORUM_OPENAI_API_KEY (or QUORUM_OPENAI_BASE_URL for a local server).`);
    return openAiCompatibleClient({ baseUrl: baseUrl || "https://api.openai.com/v1", apiKey, model, maxTokens, retry });
  }
  if (!baseUrl) throw misconfigured(`${variable}=${spec} names no known prefix (openai:, anthropic:) and no QUORUM_OPENAI_BASE_URL is set.`);
  return openAiCompatibleClient({ baseUrl, apiKey: env.QUORUM_OPENAI_API_KEY || undefined, model: spec, maxTokens, retry });
}

/** What each role thinks with: the client, and the variable that chose it. */
export interface RoleModel {
  variable: string;
  spec: string;
  client: ModelClient;
}

/** One configured model and the roles that use it (what `quorum model check` probes). */
export interface DistinctModel extends RoleModel {
  roles: ModelRole[];
}

export interface RoleModels {
  /** Each role's model; null when nothing is configured (every role scripted). */
  byRole: Record<ModelRole, RoleModel> | null;
  /** The distinct models, in role order, each built once. */
  distinct: DistinctModel[];
}

/** A QUORUM_MODEL_<X> that is neither a role nor a shared setting is a typo, never silently ignored. */
function unknownRoleVariables(env: Env): string[] {
  const known = new Set([...MODEL_ROLES.map(roleVariable), ...SHARED_SETTINGS]);
  return Object.keys(env).filter((name) => name.startsWith("QUORUM_MODEL_") && !known.has(name) && env[name]?.trim());
}

/**
 * Every role's client. A role takes QUORUM_MODEL_<ROLE> when set, else QUORUM_MODEL; one client is built per
 * distinct value, so roles that share a model share its client. A half-configured model is an error naming
 * its variable, never a silent fallback to the scripted roles; so is a role left without any model while
 * another has one (the scripted roles fly only the demo).
 */
export function roleModelsFromEnv(env: Env, retry?: RetryPolicy): RoleModels {
  const typos = unknownRoleVariables(env);
  if (typos.length) throw misconfigured(`${typos.join(", ")} names no role: the roles are ${MODEL_ROLES.map(roleVariable).join(", ")}.`);
  const fallback = env.QUORUM_MODEL?.trim();
  const baseUrl = env.QUORUM_OPENAI_BASE_URL?.trim();
  const chosen = MODEL_ROLES.map((role) => {
    const own = env[roleVariable(role)]?.trim();
    return own ? { role, variable: roleVariable(role), spec: own } : fallback ? { role, variable: "QUORUM_MODEL", spec: fallback } : { role, variable: null, spec: null };
  });
  const unset = chosen.filter((c) => c.spec === null);
  if (unset.length === MODEL_ROLES.length) {
    if (baseUrl) throw misconfigured("QUORUM_OPENAI_BASE_URL is set but QUORUM_MODEL names no model.");
    return { byRole: null, distinct: [] };
  }
  if (unset.length) {
    const set = chosen.filter((c) => c.spec !== null).map((c) => c.variable);
    throw misconfigured(`${set.join(", ")} ${set.length === 1 ? "is" : "are"} set but QUORUM_MODEL is not: ${unset.map((c) => c.role).join(", ")} would have no model.`);
  }
  const shared = sharedSettings(env, retry);
  const distinct: DistinctModel[] = [];
  const byRole = {} as Record<ModelRole, RoleModel>;
  for (const { role, variable, spec } of chosen as { role: ModelRole; variable: string; spec: string }[]) {
    let model = distinct.find((d) => d.spec === spec);
    if (!model) {
      model = { variable, spec, client: clientOf(variable, spec, env, shared), roles: [] };
      distinct.push(model);
    }
    model.roles.push(role);
    byRole[role] = { variable, spec, client: model.client };
  }
  return { byRole, distinct };
}

/** Each role's client alone, or null when nothing is configured: what the team worker takes. */
export function modelClientsFromEnv(env: Env, retry?: RetryPolicy): Record<ModelRole, ModelClient> | null {
  const { byRole } = roleModelsFromEnv(env, retry);
  if (!byRole) return null;
  return Object.fromEntries(MODEL_ROLES.map((role) => [role, byRole[role].client])) as Record<ModelRole, ModelClient>;
}

/**
 * The client for one role (the orchestrator's by default: it plans, and a flight records how it thinks), or
 * null when none is configured. For the commands that run one model (`quorum run`, a flight's mode).
 */
export function modelClientFromEnv(env: Env, retry?: RetryPolicy, role: ModelRole = "orchestrator"): ModelClient | null {
  return roleModelsFromEnv(env, retry).byRole?.[role].client ?? null;
}

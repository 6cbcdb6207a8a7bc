// Chooses the live model client from the environment; null when none is configured (then the roles run scripted).
import { anthropicClient } from "./anthropic";
import type { ModelClient } from "./model-client";
import { openAiCompatibleClient } from "./openai-compatible";
import { defaultRetryPolicy, type RetryPolicy } from "./retry";

type Env = Record<string, string | undefined>;

export const MODEL_ENV_HELP = `QUORUM_MODEL=openai:<model> (QUORUM_OPENAI_API_KEY; QUORUM_OPENAI_BASE_URL for vLLM, llama.cpp or Ollama),
QUORUM_MODEL=anthropic:<model> (QUORUM_ANTHROPIC_API_KEY; QUORUM_ANTHROPIC_BASE_URL optional),
or QUORUM_OPENAI_BASE_URL with QUORUM_MODEL=<model as that server names it>; QUORUM_MODEL_MAX_TOKENS and QUORUM_MODEL_TIMEOUT_MS (one try's ceiling) optional`;

function misconfigured(message: string): Error {
  return new Error(`${message}\nConfigure a model with ${MODEL_ENV_HELP}`);
}

/**
 * The configured client, or null when nothing is configured. A half-configured model (a prefix
 * without its key, an unknown prefix) is an error, never a silent fallback to the scripted roles.
 */
export function modelClientFromEnv(env: Env = process.env, retry?: RetryPolicy): ModelClient | null {
  const spec = env.QUORUM_MODEL?.trim();
  const baseUrl = env.QUORUM_OPENAI_BASE_URL?.trim();
  if (!spec && !baseUrl) return null;
  if (!spec) throw misconfigured("QUORUM_OPENAI_BASE_URL is set but QUORUM_MODEL names no model.");
  const maxTokens = env.QUORUM_MODEL_MAX_TOKENS ? Number(env.QUORUM_MODEL_MAX_TOKENS) : undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw misconfigured(`QUORUM_MODEL_MAX_TOKENS must be a positive integer, not '${env.QUORUM_MODEL_MAX_TOKENS}'.`);
  }
  const timeoutMs = env.QUORUM_MODEL_TIMEOUT_MS ? Number(env.QUORUM_MODEL_TIMEOUT_MS) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw misconfigured(`QUORUM_MODEL_TIMEOUT_MS must be a positive whole number of milliseconds, not '${env.QUORUM_MODEL_TIMEOUT_MS}'.`);
  }
  if (timeoutMs !== undefined) retry = { ...(retry ?? defaultRetryPolicy), timeoutMs };
  // Only these two prefixes are vendors: a bare name may hold colons of its own (`llama3.1:8b`).
  const [prefix, ...rest] = spec.split(":");
  const model = rest.join(":");
  if (prefix === "anthropic") {
    if (!model) throw misconfigured("QUORUM_MODEL=anthropic: needs a model name after the colon.");
    const apiKey = env.QUORUM_ANTHROPIC_API_KEY;
    if (!apiKey) throw misconfigured(`QUORUM_MODEL=${spec} needs QUORUM_ANTHROPIC_API_KEY.`);
    return anthropicClient({ apiKey, model, baseUrl: env.QUORUM_ANTHROPIC_BASE_URL || undefined, maxTokens, retry });
  }
  if (prefix === "openai") {
    if (!model) throw misconfigured("QUORUM_MODEL=openai: needs a model name after the colon.");
    const apiKey = env.QUORUM_OPENAI_API_KEY || undefined;
    if (!baseUrl && !apiKey) throw misconfigured(`QUORUM_MODEL=${spec} needs QUORUM_OPENAI_API_KEY (or QUORUM_OPENAI_BASE_URL for a local server).`);
    return openAiCompatibleClient({ baseUrl: baseUrl || "https://api.openai.com/v1", apiKey, model, maxTokens, retry });
  }
  if (!baseUrl) throw misconfigured(`QUORUM_MODEL=${spec} names no known prefix (openai:, anthropic:) and no QUORUM_OPENAI_BASE_URL is set.`);
  return openAiCompatibleClient({ baseUrl, apiKey: env.QUORUM_OPENAI_API_KEY || undefined, model: spec, maxTokens, retry });
}

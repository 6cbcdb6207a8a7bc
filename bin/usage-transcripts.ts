// The model calls an outside coding agent recorded in its session transcript, as POST /api/usage takes them.
// Claude Code and Codex CLI each append a JSONL transcript; their hooks name its path. Only what those files
// say is read, never guessed: a line without usage, or that does not parse, is skipped.

/** One model call, in Quorum's terms: `inputTokens` includes the cached part, as the Bill counts it. */
export interface TranscriptCall {
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export const USAGE_CLIENTS = ["claude", "codex"] as const;
export type UsageClient = (typeof USAGE_CLIENTS)[number];

/** Where the reader stopped: what was read already (bytes) and what it needs to tell a repeated record from a new one. */
export interface TranscriptPlace {
  offset: number;
  /** Claude Code: the ids of the last responses reported (one response is written as several lines). */
  seen: string[];
  /** Codex: its running total of tokens at the last call reported (it repeats a count when nothing new was used). */
  total: number;
}

export const START: TranscriptPlace = { offset: 0, seen: [], total: 0 };
const SEEN_KEPT = 64;

const count = (value: unknown): number => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0);
const record = (value: unknown): Record<string, unknown> | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

function parse(line: string): Record<string, unknown> | null {
  try {
    return record(JSON.parse(line));
  } catch {
    return null;
  }
}

/** One transcript line, and where a read resumes after it. */
interface Line {
  entry: Record<string, unknown> | null;
  offset: number;
}

/**
 * Claude Code writes each assistant response's content blocks as lines of their own, each carrying the response's
 * `message.id`, `model` and `usage`, whose `input_tokens` (uncached), `cache_read_input_tokens` and
 * `cache_creation_input_tokens` are counted apart. Quorum's input is all three, its cached part the cache reads.
 */
function claudeCall(entry: Record<string, unknown> | null, place: TranscriptPlace): { call: TranscriptCall | null; place: TranscriptPlace } {
  const message = record(entry?.message);
  const usage = record(message?.usage);
  if (entry?.type !== "assistant" || !message || !usage || typeof message.id !== "string" || typeof message.model !== "string" || place.seen.includes(message.id)) {
    return { call: null, place };
  }
  const cacheRead = count(usage.cache_read_input_tokens);
  const call = {
    model: message.model,
    inputTokens: count(usage.input_tokens) + cacheRead + count(usage.cache_creation_input_tokens),
    outputTokens: count(usage.output_tokens),
    cachedTokens: cacheRead,
  };
  const seen = [...place.seen, message.id].slice(-SEEN_KEPT);
  // Claude Code's own notices (model `<synthetic>`) cost nothing and are no model call.
  return { call: call.inputTokens + call.outputTokens > 0 ? call : null, place: { ...place, seen } };
}

/**
 * Codex writes `turn_context` lines naming the model, and after each model response an `event_msg` of type
 * `token_count` whose `info.last_token_usage` is that response's usage (its `input_tokens` include
 * `cached_input_tokens`, its `output_tokens` the reasoning) and `info.total_token_usage` the session's total.
 */
function codexCall(entry: Record<string, unknown> | null, place: TranscriptPlace, model: string | null): { call: TranscriptCall | null; place: TranscriptPlace } {
  const payload = record(entry?.payload);
  if (entry?.type !== "event_msg" || payload?.type !== "token_count") return { call: null, place };
  const info = record(payload.info);
  const last = record(info?.last_token_usage);
  const running = count(record(info?.total_token_usage)?.total_tokens);
  if (!last || running <= place.total || !model) return { call: null, place };
  const inputTokens = count(last.input_tokens);
  const call = { model, inputTokens, outputTokens: count(last.output_tokens), cachedTokens: Math.min(count(last.cached_input_tokens), inputTokens) };
  return { call, place: { ...place, total: running } };
}

/** A call, and where a read resumes once it is reported: report in order, keep the place of the last one that went through. */
export interface PlacedCall extends TranscriptCall {
  after: TranscriptPlace;
}

/**
 * The calls in `text` (the transcript from `place.offset` on) and where the next read starts. A last line without
 * its newline is still being written: it is left for the next read. `fallbackModel` names Codex's model when the
 * text holds no `turn_context` before a count (the hook's input says which model runs).
 */
export function readTranscript(client: UsageClient, text: string, place: TranscriptPlace, fallbackModel: string | null = null): { calls: PlacedCall[]; next: TranscriptPlace } {
  const lines: Line[] = [];
  let offset = place.offset;
  for (let from = 0, end = text.indexOf("\n"); end !== -1; from = end + 1, end = text.indexOf("\n", from)) {
    const raw = text.slice(from, end + 1);
    offset += Buffer.byteLength(raw);
    if (raw.trim() !== "") lines.push({ entry: parse(raw), offset });
  }
  const calls: PlacedCall[] = [];
  let current = place;
  let model = fallbackModel;
  for (const line of lines) {
    const payload = record(line.entry?.payload);
    if (client === "codex" && line.entry?.type === "turn_context" && typeof payload?.model === "string") model = payload.model;
    const read = client === "claude" ? claudeCall(line.entry, current) : codexCall(line.entry, current, model);
    current = { ...read.place, offset: line.offset };
    if (read.call) calls.push({ ...read.call, after: current });
  }
  return { calls, next: { ...current, offset } };
}

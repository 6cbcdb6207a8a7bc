// `quorum hook usage claude|codex`: what Claude Code's and Codex's Stop hooks run after each reply. It reads the
// hook's JSON on stdin (the session's transcript path), finds the model calls the transcript gained since the last
// run, and reports each to the hub's POST /api/usage with the agent's key, so the agent's spend is on the Bill.
//
// A relay like `quorum mcp`: QUORUM_URL and QUORUM_KEY only, no database. Where it stopped is kept per transcript in
// a small file, moved after each call the hub took, so a run that fails halfway reports the rest next time and
// never a call twice. It never blocks the client: a failure is a message and exit 1, which hooks show and move past.
import { createHash } from "node:crypto";
import { mkdirSync, openSync, readFileSync, readSync, closeSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { readTranscript, START, type TranscriptPlace, type UsageClient } from "./usage-transcripts";

/** What both clients' Stop hooks send (Codex adds the model; its transcript path may be null). */
const hookInput = z.looseObject({
  session_id: z.string().optional(),
  transcript_path: z.string().min(1).nullable().optional(),
  model: z.string().min(1).optional(),
});

/** At most this much of a transcript is read per run; a longer backlog is reported over the next runs. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

export interface UsageHookOptions {
  base: string;
  key: string | undefined;
  /** Where each transcript's place is kept. */
  stateDir: string;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

function placeFile(stateDir: string, transcript: string): string {
  return join(stateDir, `${createHash("sha256").update(transcript).digest("hex").slice(0, 32)}.json`);
}

function loadPlace(file: string): TranscriptPlace {
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as Partial<TranscriptPlace>;
    return { offset: Number(saved.offset) || 0, seen: Array.isArray(saved.seen) ? saved.seen.filter((s) => typeof s === "string") : [], total: Number(saved.total) || 0 };
  } catch {
    return START;
  }
}

/** The transcript from `place` on, and the place to read from (the start again for a transcript shorter than it: replaced). */
function readFrom(path: string, place: TranscriptPlace): { text: string; place: TranscriptPlace } {
  const size = statSync(path).size;
  const from = size < place.offset ? START : place;
  const length = Math.min(size - from.offset, MAX_READ_BYTES);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, length, from.offset);
  } finally {
    closeSync(fd);
  }
  return { text: buffer.toString("utf8"), place: from };
}

/** Reports the transcript's new calls; returns the exit code (0: done, 1: told why on stderr). */
export async function usageHook(client: UsageClient, stdin: string, options: UsageHookOptions): Promise<number> {
  const log = options.log ?? ((line: string) => console.error(line));
  if (!options.key) {
    log("quorum hook usage: set QUORUM_KEY to the agent's key (`quorum connect … --agent NAME` prints one) and QUORUM_URL to the hub");
    return 1;
  }
  let input: z.infer<typeof hookInput>;
  try {
    input = hookInput.parse(JSON.parse(stdin));
  } catch {
    log("quorum hook usage: stdin is not the JSON a Stop hook receives");
    return 1;
  }
  if (!input.transcript_path) {
    log("quorum hook usage: the hook named no transcript, so there is nothing to report");
    return 0;
  }
  mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
  const file = placeFile(options.stateDir, input.transcript_path);
  let read: ReturnType<typeof readFrom>;
  try {
    read = readFrom(input.transcript_path, loadPlace(file));
  } catch (error) {
    log(`quorum hook usage: cannot read ${input.transcript_path} (${(error as Error).message})`);
    return 1;
  }
  const { calls, next } = readTranscript(client, read.text, read.place, input.model ?? null);
  const post = options.fetch ?? fetch;
  for (const { after, ...call } of calls) {
    let response: Response;
    try {
      response = await post(new URL("/api/usage", options.base), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${options.key}` },
        body: JSON.stringify(call),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      log(`quorum hook usage: cannot reach Quorum at ${options.base} (${(error as Error).message}); the rest is reported next time`);
      return 1;
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string; error?: string };
      log(`quorum hook usage: Quorum answered ${response.status}: ${body.message ?? body.error ?? "no reason given"}`);
      return 1;
    }
    writeFileSync(file, JSON.stringify(after), { mode: 0o600 });
  }
  writeFileSync(file, JSON.stringify(next), { mode: 0o600 });
  return 0;
}

// `quorum hook usage`: the transcripts Claude Code and Codex write are read as the model calls they record (each
// once, partial lines left for later), and the Stop-hook wiring `quorum connect` prints, run as a client runs it
// (a shell command with the hook's JSON on stdin) against a real HTTP hub, puts each call on the Bill exactly once.
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
const usageRoute = apiRoute("/api/usage");
import { getDb } from "../db/client";
import { readBill } from "../domain/bill/read-bill";
import { serve } from "../test/mcp/client";
import { makeAgent } from "../test/helpers";
import { usageWiring } from "./connect";
import { readTranscript, START } from "./usage-transcripts";
import { apiRoute } from "../test/api";

const jsonl = (...entries: object[]) => entries.map((e) => `${JSON.stringify(e)}\n`).join("");

/** A Claude Code response as its transcript writes it: one line per content block, the same id, model and usage on each. */
const claudeResponse = (id: string, usage: object, blocks = 1) =>
  Array.from({ length: blocks }, (_, n) => ({
    type: "assistant",
    uuid: `${id}-${n}`,
    message: { id, model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text: `part ${n}` }], usage },
  }));

const codexCount = (total: number, last: object | null) => ({
  type: "event_msg",
  payload: { type: "token_count", info: last ? { total_token_usage: { total_tokens: total }, last_token_usage: last } : null },
});

describe("reading a transcript", () => {
  it("Claude Code: one call per response (however many lines it took), input with the cache reads and writes, synthetic notices and a half-written line left out", () => {
    const text =
      jsonl(
        { type: "user", message: { role: "user", content: "fix the parser" } },
        ...claudeResponse("msg_1", { input_tokens: 10, cache_read_input_tokens: 9000, cache_creation_input_tokens: 500, output_tokens: 120 }, 3),
        { type: "assistant", message: { id: "msg_s", model: "<synthetic>", usage: { input_tokens: 0, output_tokens: 0 } } },
        ...claudeResponse("msg_2", { input_tokens: 4, cache_read_input_tokens: 9500, output_tokens: 40 }),
      ) + JSON.stringify(claudeResponse("msg_3", { input_tokens: 2, output_tokens: 1 })[0]);
    const { calls, next } = readTranscript("claude", text, START);
    expect(calls.map(({ after: _, ...call }) => call)).toEqual([
      { model: "claude-sonnet-4-5", inputTokens: 9510, outputTokens: 120, cachedTokens: 9000 },
      { model: "claude-sonnet-4-5", inputTokens: 9504, outputTokens: 40, cachedTokens: 9500 },
    ]);
    // The half-written last line is read again next time, and what was seen is not counted twice.
    expect(next.offset).toBe(Buffer.byteLength(text.slice(0, text.lastIndexOf("\n") + 1)));
    const more = readTranscript("claude", `${text.slice(text.lastIndexOf("\n") + 1)}\n${jsonl(...claudeResponse("msg_2", { input_tokens: 4, output_tokens: 40 }))}`, next);
    expect(more.calls.map((c) => c.inputTokens)).toEqual([2]);
  });

  it("Codex: each token count that moved the session's total, under the model of the turn, with OpenAI's cached part of the input", () => {
    const text = jsonl(
      { type: "session_meta", payload: { id: "s1", cwd: "/repo" } },
      { type: "turn_context", payload: { model: "gpt-5-codex", cwd: "/repo" } },
      codexCount(0, null),
      codexCount(1000, { input_tokens: 900, cached_input_tokens: 600, output_tokens: 100, reasoning_output_tokens: 40, total_tokens: 1000 }),
      codexCount(1000, { input_tokens: 900, cached_input_tokens: 600, output_tokens: 100, total_tokens: 1000 }),
      { type: "turn_context", payload: { model: "gpt-5" } },
      codexCount(1700, { input_tokens: 650, cached_input_tokens: 900, output_tokens: 50, total_tokens: 700 }),
    );
    const { calls, next } = readTranscript("codex", text, START);
    expect(calls.map(({ after: _, ...call }) => call)).toEqual([
      { model: "gpt-5-codex", inputTokens: 900, outputTokens: 100, cachedTokens: 600 },
      { model: "gpt-5", inputTokens: 650, outputTokens: 50, cachedTokens: 650 },
    ]);
    expect(next.total).toBe(1700);
    // A count before any turn_context takes the model the hook named.
    expect(readTranscript("codex", jsonl(codexCount(5, { input_tokens: 3, output_tokens: 2 })), START, "o4-mini").calls[0]).toMatchObject({ model: "o4-mini", inputTokens: 3 });
  });
});

describe("the Stop hook `quorum connect` prints", () => {
  let hub: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    hub = await serve([{ path: "/api/usage", handlers: usageRoute }]);
  });
  afterAll(async () => {
    await hub.close();
  });

  /** Runs the hook's command as the client would: through a shell, the hook's JSON on stdin, in a home of its own (the hub answers in this process). */
  function runHook(command: string, input: object, home: string): Promise<{ status: number | null; stderr: string }> {
    const child = spawn("sh", ["-c", command], { env: { ...process.env, HOME: home }, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.stdin.end(JSON.stringify(input));
    return new Promise((resolve) => child.on("close", (status: number | null) => resolve({ status, stderr })));
  }
  const commandIn = (printed: string) => JSON.parse(printed.slice(printed.indexOf("{"), printed.lastIndexOf("}") + 1)).hooks.Stop[0].hooks[0].command as string;
  const reported = async (agentId: string) =>
    (await getDb().execute<{ data: { amount: number; model: string } }>(sql`select data from events where kind = 'UsageReported' and actor = ${agentId} order by id`)).map(
      (r) => r.data,
    );

  it("Claude Code: reports each response once across runs, and the Bill shows it self-reported", async () => {
    const agent = await makeAgent(undefined, "outside");
    const home = mkdtempSync(join(tmpdir(), "quorum-hook-home-"));
    const transcript = join(home, "session.jsonl");
    writeFileSync(transcript, jsonl(...claudeResponse("msg_a", { input_tokens: 20, cache_read_input_tokens: 1000, output_tokens: 300 }, 2)));
    const command = commandIn(usageWiring("claude", { base: hub.url, key: agent.key }));
    const input = { session_id: "s1", transcript_path: transcript, cwd: home, hook_event_name: "Stop", stop_hook_active: false };

    expect(await runHook(command, input, home)).toMatchObject({ status: 0 });
    expect(await runHook(command, input, home)).toMatchObject({ status: 0 });
    expect(await reported(agent.id)).toEqual([expect.objectContaining({ model: "claude-sonnet-4-5", amount: 1320, selfReported: true })]);
    appendFileSync(transcript, jsonl(...claudeResponse("msg_b", { input_tokens: 5, output_tokens: 15 })));
    expect(await runHook(command, input, home)).toMatchObject({ status: 0 });
    expect((await reported(agent.id)).map((d) => d.amount)).toEqual([1320, 20]);

    const line = (await readBill(getDb(), { currency: "USD", problem: null, prices: {} })).agents.find((a) => a.agentId === agent.id);
    expect(line).toMatchObject({ tokens: 1340, calls: 2, selfReportedTokens: 1340, selfReportedCalls: 2 });
  }, 120_000);

  it("Codex: reports its token counts once; a bad key is said on stderr, exit 1, and nothing is lost for the next run", async () => {
    const agent = await makeAgent(undefined, "outside");
    const home = mkdtempSync(join(tmpdir(), "quorum-hook-home-"));
    const transcript = join(home, "rollout.jsonl");
    writeFileSync(
      transcript,
      jsonl({ type: "turn_context", payload: { model: "gpt-5-codex" } }, codexCount(400, { input_tokens: 350, cached_input_tokens: 100, output_tokens: 50 })),
    );
    const input = { session_id: "t1", turn_id: "u1", transcript_path: transcript, cwd: home, hook_event_name: "Stop", model: "gpt-5-codex" };

    const refused = await runHook(commandIn(usageWiring("codex", { base: hub.url, key: "qk_not-a-key" })), input, home);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/Quorum answered 401/);
    const command = commandIn(usageWiring("codex", { base: hub.url, key: agent.key }));
    expect(await runHook(command, input, home)).toMatchObject({ status: 0 });
    expect(await runHook(command, input, home)).toMatchObject({ status: 0 });
    expect(await reported(agent.id)).toEqual([expect.objectContaining({ model: "gpt-5-codex", amount: 400, cachedTokens: 100 })]);
  }, 120_000);

  it("says, for Cursor, that there is no hook to wire, rather than inventing one", () => {
    expect(usageWiring("cursor", { base: hub.url, key: "qk_x" })).toMatch(/no usage hook for Cursor.*\n.*report_usage/);
  });
});

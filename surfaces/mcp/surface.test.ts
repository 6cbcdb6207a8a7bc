// The MCP surface beyond the cycle: profiles and their size, the long-poll, refusal hints, resources, OAuth probes.
import { describe, expect, it } from "vitest";
import { serverContext } from "../../domain/context";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { GET as wellKnown } from "../../app/.well-known/[...path]/route";
import { systemClock } from "../../domain/clock";
import { freshRoom, tryPost } from "../../test/fixtures/room";
import { createTask } from "../../domain/tasks/create";
import { ROUTES } from "../http/routes";
import { toolsOf } from "../http/tools";
import { PROFILES, toolsFor } from "./registry";
import { httpClient, ok, refused } from "../../test/mcp/client";

describe("profiles", () => {
  it("list their subset, each tool with annotations and an output schema, within a token budget", async () => {
    const ada = await makeAgent();
    // Estimate: JSON characters of tools/list ÷ 4. The room argument carries the path's own description (chat: ≈2,630).
    const budget = { full: 12_500, worker: 4_500, chat: 2_700 };
    for (const profile of PROFILES) {
      const client = await httpClient(ada.key, profile);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        toolsFor(profile, toolsOf(ROUTES))
          .map((t) => t.name)
          .sort(),
      );
      for (const tool of tools) {
        expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) });
        expect(tool.outputSchema?.type, tool.name).toBe("object");
        expect(tool.inputSchema.type, tool.name).toBe("object");
      }
      const tokens = Math.round(JSON.stringify(tools).length / 4);
      console.log(`profile ${profile}: ${tools.length} tools, ≈${tokens} tokens of tool definitions (JSON chars / 4)`);
      expect(tokens).toBeLessThan(budget[profile]);
      await client.close();
    }
  });

  it("refuses a tool outside the profile, and bad arguments with zod issues", async () => {
    const ada = await makeAgent();
    const chat = await httpClient(ada.key, "chat");
    await expect(chat.callTool({ name: "claim_next_task", arguments: {} })).rejects.toThrow(/no tool 'claim_next_task' in the chat profile/);
    await chat.close();
    const full = await httpClient(ada.key);
    const badStatus = await refused(full, "list_tasks", { status: "finished" });
    expect(badStatus).toMatchObject({ error: "invalid", issues: [expect.objectContaining({ code: "invalid_value" })] });
    expect(badStatus.issues[0].path[0]).toBe("status");
    expect(await refused(full, "heartbeat", { taskId: "nope", fence: -1 })).toMatchObject({ error: "invalid" });
    expect(await refused(full, "get_task", { taskId: "00000000-0000-4000-8000-000000000000" })).toMatchObject({ error: "not_found" });
    await full.close();
  });
});

describe("wait_for_events", () => {
  it("answers at once when news exists, times out empty, wakes on a commit, and never moves the seen-cursor", async () => {
    const lead = await makeHuman();
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(lead, "wait");
    const a = await httpClient(ada.key);
    const head = await ok(a, "wait_for_events", { timeoutSeconds: 0 });
    expect(head).toMatchObject({ items: [], timedOut: true, next: expect.any(Number) });

    let started = Date.now();
    const quiet = await ok(a, "wait_for_events", { after: head.next, timeoutSeconds: 1 });
    expect(quiet).toMatchObject({ items: [], timedOut: true, next: head.next });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    started = Date.now();
    const waiting = ok(a, "wait_for_events", { after: head.next, timeoutSeconds: 20, kinds: "MessageSent" });
    await new Promise((r) => setTimeout(r, 300));
    const sent = await tryPost(bo, room, { body: `@${ada.name} the parser is yours`, to: ada.name }, systemClock);
    expect(sent.ok).toBe(true);
    const news = await waiting;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(news.timedOut).toBe(false);
    expect(news.items).toEqual([expect.objectContaining({ kind: "MessageSent", actor: bo.id, room, forMe: true })]);

    // Reading (inbox, messages, waits) leaves the cursor where it was: only ack_messages moves it.
    const before = await ok(a, "read_cursor", { room });
    await ok(a, "read_inbox", { room });
    await ok(a, "read_messages", { room, after: 0 });
    await ok(a, "wait_for_events", { after: head.next, timeoutSeconds: 0 });
    expect(await ok(a, "read_cursor", { room })).toMatchObject({ seq: before.seq, moved: false });
    expect(before.seq).toBe(0);

    // A filter that matches nothing still moves `next` past what it skipped.
    const filtered = await ok(a, "wait_for_events", { after: head.next, timeoutSeconds: 0, kinds: "TaskCreated" });
    expect(filtered.items).toEqual([]);
    expect(filtered.next).toBeGreaterThan(head.next);
    await a.close();
  });
});

describe("resources", () => {
  it("offers the inbox, the claimable board, open decisions, commitments and reservations", async () => {
    const lead = await makeHuman();
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(lead, "res");
    const claimable = await createTask(serverContext().db, lead, { title: "Claimable", acceptanceCriteria: "it works" }, systemClock);
    const mine = await createTask(serverContext().db, ada, { title: "Ada approves this", acceptanceCriteria: "it works", approverId: ada.id }, systemClock);
    await tryPost(bo, room, { body: `hello @${ada.name}` }, systemClock);
    const a = await httpClient(ada.key);
    const { resources } = await a.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(["quorum://board", "quorum://commitments", "quorum://decisions", "quorum://inbox", "quorum://reservations"]);
    const read = async (uri: string) => JSON.parse(((await a.readResource({ uri })).contents[0] as { text: string }).text);
    const board = (await read("quorum://board")).items.map((t: { id: string }) => t.id);
    expect(board).toContain(claimable.id);
    expect(board).not.toContain(mine.id);
    expect((await read("quorum://inbox")).items).toEqual([expect.objectContaining({ room, senderId: bo.id, addressed: true })]);
    expect(await read("quorum://decisions")).toMatchObject({ items: expect.any(Array) });
    expect(await read("quorum://commitments")).toMatchObject({ items: [] });
    await expect(a.readResource({ uri: "quorum://nothing" })).rejects.toThrow(/no resource/);
    await a.close();
  });
});

// After the resources test: its inbox covers every room, so this test's broadcast would show there.
describe("refusal hints", () => {
  it("word a stale refusal's next step as MCP tools, never as REST routes, and the tools they name work", async () => {
    const lead = await makeHuman();
    const ada = await makeAgent();
    const room = await freshRoom(lead, "hint");
    await tryPost(lead, room, "welcome", systemClock);
    const a = await httpClient(ada.key);
    const stale = await refused(a, "post_message", { room, body: "hello all" });
    expect(stale).toMatchObject({ error: "stale", unread: [expect.objectContaining({ body: "welcome" })], holdToken: expect.any(String) });
    const seq = stale.holdSeq as number;
    expect(stale.hint).toBe(`call ack_messages with {"room":"${room}","seq":${seq}}, or call post_message again with the same arguments plus holdToken from this refusal`);
    expect(stale.hint).not.toMatch(/\/api\/|POST |GET /);
    expect(stale.message).not.toMatch(/\/api\//);
    // Following the hint's first step: the ack it names passes, then the post does.
    expect(await ok(a, "ack_messages", { room, seq })).toMatchObject({ seq, moved: true });
    expect(await ok(a, "post_message", { room, body: "hello all" })).toMatchObject({ room, senderId: ada.id });
    // A refusal with no next step carries no hint.
    const dupe = await refused(a, "post_message", { room, body: "hello all", to: lead.name });
    expect(dupe.error).toBe("duplicate");
    expect(dupe).not.toHaveProperty("hint");
    await a.close();
  });
});

describe("OAuth discovery probes", () => {
  it("answer 404 with JSON, never a 500", async () => {
    for (const path of [
      "oauth-protected-resource",
      "oauth-protected-resource/api/mcp",
      "oauth-authorization-server",
      "oauth-authorization-server/api/mcp",
      "openid-configuration",
    ]) {
      const res = await call(wellKnown, `/.well-known/${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/application\/json/);
      expect(res.body, path).toMatchObject({ error: "not_found", message: expect.stringContaining("Bearer") });
    }
  });
});

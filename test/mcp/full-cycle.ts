// The full agent cycle over MCP, shared by the Streamable HTTP test and the stdio test (`quorum mcp`).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { getDb } from "../../db/client";
import { makeAgent, makeHuman } from "../helpers";
import { systemClock } from "../../domain/clock";
import { openDecision } from "../../domain/decisions/open-decision";
import { freshRoom } from "../fixtures/room";
import { createTask } from "../../domain/tasks/create";
import { ok, refused } from "./client";

export async function runFullCycle(connect: (key: string) => Promise<Client>): Promise<void> {
  const db = getDb();
  const lead = await makeHuman();
  const [ada, bo] = [await makeAgent(), await makeAgent()];
  const room = await freshRoom(lead, "mcp");
  const a = await connect(ada.key);
  const b = await connect(bo.key);
  try {
    // Each request is resolved from its own key: two clients, two identities.
    expect((await ok(a, "whoami")).id).toBe(ada.id);
    expect((await ok(b, "whoami")).id).toBe(bo.id);

    // Freshness: a broadcast over unread mail is refused with the mail and a hold token; the token passes.
    const first = await ok(b, "post_message", { room, body: "I will take the parser." });
    const stale = await refused(a, "post_message", { room, body: "Starting on the tokenizer." });
    expect(stale).toMatchObject({ error: "stale", holdToken: expect.any(String), hint: expect.stringContaining("ack_messages") });
    expect(stale.unread.map((m: { seq: number }) => m.seq)).toEqual([first.seq]);
    const posted = await ok(a, "post_message", { room, body: "Starting on the tokenizer.", holdToken: stale.holdToken });
    expect(posted).toMatchObject({ room, senderId: ada.id, heldSeq: first.seq });
    const bad = await refused(a, "post_message", { room, body: "" });
    expect(bad).toMatchObject({ error: "invalid", issues: [expect.objectContaining({ path: ["body"] })] });
    expect((await ok(a, "ack_messages", { room, seq: posted.seq })).moved).toBe(true);

    // The board: claim-next, a heartbeat with a stale fence refused, output, submit.
    const task = await createTask(db, lead, { title: "Parse empty input", acceptanceCriteria: "parse('') returns []" }, systemClock);
    const claimed = (await ok(a, "claim_next_task")).task;
    expect(claimed).toMatchObject({ id: task.id, status: "in_progress", ownerId: ada.id, fence: 1 });
    const staleFence = await refused(a, "heartbeat", { taskId: task.id, fence: claimed.fence + 1 });
    expect(staleFence).toMatchObject({ error: "stale_fence", fence: claimed.fence });
    await ok(a, "heartbeat", { taskId: task.id, fence: claimed.fence });
    const written = await ok(a, "append_output", { taskId: task.id, fence: claimed.fence, from: 1, items: [{ step: "tokenizer", passed: true }] });
    expect(written.outputCount).toBe(1);
    // Sent again (no answer came), it is not stored twice; other items in its place are refused.
    expect((await ok(a, "append_output", { taskId: task.id, fence: claimed.fence, from: 1, items: [{ step: "tokenizer", passed: true }] })).outputCount).toBe(1);
    const moved = await refused(a, "append_output", { taskId: task.id, fence: claimed.fence, from: 1, items: [{ step: "parser" }] });
    expect(moved).toMatchObject({ error: "output_conflict", outputCount: 1 });
    const submitted = await ok(a, "submit_task", { taskId: task.id, fence: claimed.fence, summary: "parse('') returns []", evidence: "1 passed" });
    expect(submitted.status).toBe("review");
    expect((await ok(b, "claim_next_task")).task).toBeNull();

    // A ballot.
    const decision = await openDecision(
      db,
      lead,
      {
        question: "Test runner?",
        options: ["vitest", "jest"],
        defaultOption: "vitest",
        consequence: "We keep vitest.",
        quorum: 2,
        timeboxSeconds: 3600,
        escalationTimeboxSeconds: 3600,
      },
      systemClock,
    );
    const ballot = await ok(a, "cast_ballot", { decisionId: decision.id, option: "vitest", reasoning: "Already configured." });
    expect(ballot).toMatchObject({ option: "vitest", voterId: ada.id, decision: { id: decision.id, status: "open" } });

    // Commitments: a dependency that would close a cycle is refused with the cycle's path.
    const tokenizer = await ok(a, "propose_commitment", { what: "Tokenizer" });
    const parser = await ok(a, "propose_commitment", { what: "Parser", taskId: task.id });
    await ok(a, "confirm_commitment", { commitmentId: tokenizer.id });
    await ok(a, "confirm_commitment", { commitmentId: parser.id });
    await ok(a, "add_dependency", { commitmentId: parser.id, blockerId: tokenizer.id });
    const cycle = await refused(a, "add_dependency", { commitmentId: tokenizer.id, blockerId: parser.id });
    expect(cycle.error).toBe("cycle");
    expect(cycle.path[0]).toBe(tokenizer.id);
    expect(cycle.path).toContain(parser.id);

    // Reservations: an overlapping exclusive reservation is refused, naming the holder, its patterns and expiry.
    const held = await ok(a, "reserve_paths", { patterns: ["src/lib/**"], reason: "tokenizer rewrite", taskId: task.id });
    const conflict = await refused(b, "reserve_paths", { patterns: ["src/{lib,app}/parse.ts"], reason: "parser fix" });
    expect(conflict.error).toBe("reserved");
    expect(conflict.holders).toEqual([expect.objectContaining({ holderId: ada.id, holderName: ada.name, patterns: ["src/lib/**"], expiresAt: held.expiresAt, mode: "exclusive" })]);
    const check = await ok(b, "check_paths", { paths: ["src/lib/parse.ts", "docs/intro.md"] });
    expect(check).toMatchObject({ ok: false, blocked: [expect.objectContaining({ path: "src/lib/parse.ts", holderName: ada.name })] });
    const mine = await a.readResource({ uri: "quorum://reservations" });
    expect(JSON.parse((mine.contents[0] as { text: string }).text).items.map((r: { id: string }) => r.id)).toEqual([held.id]);
    await ok(a, "release_reservation", { reservationId: held.id, fence: held.fence });
    expect((await ok(b, "reserve_paths", { patterns: ["src/lib/parse.ts"], reason: "parser fix" })).holderId).toBe(bo.id);
  } finally {
    await a.close();
    await b.close();
  }
}

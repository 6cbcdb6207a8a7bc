// The first flight, live: the team thinks through QUORUM_MODEL, served by a separate process speaking the
// OpenAI chat-completions wire (then the Anthropic messages wire). The flight reaches the human's review
// with the scripted flight's journal kinds, and the bill is exactly the usage the server reported.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { launchFlight } from "../../domain/flights/launch";
import { loadBill } from "../../domain/bill/bill";
import { flightJournal, settledStatus, startWorker, suitePasses, until } from "../../test/fixtures/team";
import { startModelServer, type ModelServer } from "../../test/fixtures/model-server";
import { makeHuman } from "../../test/helpers";
import { ackAndPost } from "../../test/fixtures/room";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { modelClientFromEnv } from "../model/from-env";
import type { ModelClient } from "../model/model-client";
import { ensureTeam } from "./team";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Flies the demo goal with `model` (null: scripted) to the human's review; returns the flight's journal. */
async function fly(model: ModelClient | null) {
  const db = getDb();
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-live-")));
  const human = await makeHuman();
  await ensureTeam(db, systemClock);
  // A human speaks between flights, as in any room: the lapping gate counts agents' posts since a human's.
  await ackAndPost(human, "general", { body: `Next flight, please (${human.name}).` }, systemClock);
  const { flight, goalTask } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: model?.name ?? "scripted" }, systemClock);
  const worker = startWorker({ model });
  try {
    expect(await until("the flight to settle", () => settledStatus(flight.id), 60_000)).toBe("green");
  } finally {
    await worker.stop();
  }
  const [goal] = await db.select().from(tasks).where(eq(tasks.id, goalTask.id));
  return { repo, branch: flight.branch, goal, journal: await flightJournal(flight.id) };
}

/**
 * The kinds a flight journals, but for those timing decides, in a scripted flight as in a live one: the
 * relay's refusals (whether two roles post into the room at the same moment, one then held as stale and
 * retrying) and a focus window's digest (whether a post reached the coder while it held its task).
 */
const TIMING_KINDS = new Set(["GateRejected", "DigestFlushed"]);
const kindsOf = (journal: { kind: string }[]) => [...new Set(journal.map((e) => e.kind).filter((kind) => !TIMING_KINDS.has(kind)))].sort();

async function debitsOf(journal: { kind: string; id: number }[]) {
  const ids = new Set(journal.filter((e) => e.kind === "BudgetDebited").map((e) => e.id));
  const rows = (await getDb().select().from(events).where(eq(events.kind, "BudgetDebited"))).filter((e) => ids.has(e.id));
  return rows.map((r) => r.data as { amount: number; estimated: boolean; model: string; cachedTokens: number });
}

describe("a live flight through a separate model server", { timeout: 180_000 }, () => {
  it("runs plan, edit, real tests, ACCEPT, integration and the green suite through QUORUM_MODEL on the OpenAI wire, billed at the reported usage", async () => {
    const scripted = await fly(null);

    server = await startModelServer();
    const model = modelClientFromEnv({ QUORUM_MODEL: "stand-in-gpt", QUORUM_OPENAI_BASE_URL: `${server.url}/v1`, QUORUM_OPENAI_API_KEY: "sk-stand-in" })!;
    const live = await fly(model);

    expect(suitePasses(live.repo, live.branch)).toBe(true);
    expect(live.goal.status).toBe("review");
    expect(kindsOf(live.journal)).toEqual(kindsOf(scripted.journal));
    expect(live.journal.filter((e) => e.kind === "RunStarted").map((e) => (e.data as { model: string }).model)).toEqual(expect.arrayContaining(["openai-compatible:stand-in-gpt"]));

    const reported = await server.usage();
    expect(reported.answered).toBeGreaterThanOrEqual(8);
    const debits = await debitsOf(live.journal);
    expect(debits.every((d) => !d.estimated && d.model === "stand-in-gpt")).toBe(true);
    expect(debits.reduce((n, d) => n + d.amount, 0)).toBe(reported.input + reported.output);
    // The server caches leading messages by itself, as OpenAI does, and reports them as cached_tokens.
    expect(reported.cacheRead).toBeGreaterThan(0);
    expect(debits.reduce((n, d) => n + d.cachedTokens, 0)).toBe(reported.cacheRead);
    const bill = await loadBill(getDb());
    expect(bill.agents.reduce((n, a) => n + a.tokens, 0)).toBeGreaterThanOrEqual(reported.input + reported.output);
  });

  it("flies the same on the Anthropic messages wire", async () => {
    server = await startModelServer();
    const model = modelClientFromEnv({ QUORUM_MODEL: "anthropic:stand-in-claude", QUORUM_ANTHROPIC_API_KEY: "ak-stand-in", QUORUM_ANTHROPIC_BASE_URL: server.url })!;
    const live = await fly(model);
    expect(suitePasses(live.repo, live.branch)).toBe(true);
    expect(live.goal.status).toBe("review");
    const reported = await server.usage();
    const debits = await debitsOf(live.journal);
    expect(debits.every((d) => !d.estimated && d.model === "stand-in-claude")).toBe(true);
    // Cache reads and writes are input too: the bill's tokens are the reported usage, whatever was cached.
    expect(debits.reduce((n, d) => n + d.amount, 0)).toBe(reported.input + reported.output);

    // Every request marks its stable prefix for prompt caching: the tools, the system block, the conversation.
    const seen = (await server.requests()).filter((r) => r.role);
    expect(seen.length).toBeGreaterThanOrEqual(8);
    for (const request of seen) expect(request.cacheMarks).toEqual(["tools", "system", "messages"]);
    // A run's second turn reads its first turn's prefix from the cache: cached tokens are billed as the server said.
    expect(reported.cacheRead).toBeGreaterThan(0);
    expect(reported.cacheWrite).toBeGreaterThan(0);
    expect(debits.reduce((n, d) => n + d.cachedTokens, 0)).toBe(reported.cacheRead);
    const bill = await loadBill(getDb());
    const coder = bill.agents.find((a) => a.agentName === "coder")!;
    expect(coder.cachedTokens).toBeGreaterThan(0);
  });
});

// Models per role, through the stand-in model server: with QUORUM_MODEL for the team and QUORUM_MODEL_REVIEWER
// naming a small model on the other wire, the reviewer's requests ask for the reviewer's model and every other
// role's for the team's; the worker announces each member's model, which GET /api/team's status carries.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { launchFlight } from "../../domain/flights/launch";
import { readTeamStatus } from "../../domain/flights/team-status";
import { settledStatus, startWorker, until } from "../../test/fixtures/team";
import { startModelServer, type ModelServer } from "../../test/fixtures/model-server";
import { makeHuman } from "../../test/helpers";
import { ackAndPost } from "../../test/fixtures/room";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { modelClientsFromEnv } from "../model/from-env";
import { ensureTeam } from "./team";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("models per role", { timeout: 180_000 }, () => {
  it("gives the reviewer its own model and every other role the team's, and journals each member's", async () => {
    server = await startModelServer();
    const models = modelClientsFromEnv({
      QUORUM_MODEL: "stand-in-big",
      QUORUM_OPENAI_BASE_URL: `${server.url}/v1`,
      QUORUM_MODEL_REVIEWER: "anthropic:stand-in-small",
      QUORUM_ANTHROPIC_API_KEY: "ak-stand-in",
      QUORUM_ANTHROPIC_BASE_URL: server.url,
    })!;
    const db = getDb();
    const human = await makeHuman();
    await ensureTeam(db, systemClock);
    await ackAndPost(human, "general", { body: `A flight with a small reviewer, please (${human.name}).` }, systemClock);
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-roles-")));
    const { flight } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: models.orchestrator.name }, systemClock);
    const worker = startWorker({ models });
    try {
      expect(await until("the flight to settle", () => settledStatus(flight.id), 90_000)).toBe("green");
    } finally {
      await worker.stop();
    }

    const seen = await server.requests();
    const byRole = (role: string) => seen.filter((r) => r.role === role);
    expect(byRole("reviewer").length).toBeGreaterThan(0);
    expect(new Set(byRole("reviewer").map((r) => `${r.wire} ${r.model}`))).toEqual(new Set(["anthropic stand-in-small"]));
    for (const role of ["orchestrator", "coder", "tester"]) {
      expect(byRole(role).length, role).toBeGreaterThan(0);
      expect(new Set(byRole(role).map((r) => `${r.wire} ${r.model}`)), role).toEqual(new Set(["openai stand-in-big"]));
    }

    const [started] = await db.select().from(events).where(eq(events.kind, "TeamStarted")).orderBy(desc(events.id)).limit(1);
    expect(started.data).toMatchObject({
      mode: "openai-compatible:stand-in-big",
      models: {
        orchestrator: "openai-compatible:stand-in-big",
        coder: "openai-compatible:stand-in-big",
        reviewer: "anthropic:stand-in-small",
        tester: "openai-compatible:stand-in-big",
      },
    });
    expect((await readTeamStatus(db)).members).toMatchObject({ reviewer: "anthropic:stand-in-small", coder: "openai-compatible:stand-in-big" });
  });
});

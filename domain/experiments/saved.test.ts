// The experiments' saved tables as the Lab's Experiments page reads them (GET /api/experiments): only the runs
// made on this hub (its QUORUM_HOME, or QUORUM_EXPERIMENTS_DIR), newest first, with when each ran, its parameters
// and the command that reproduces it; a file that is no result is named, not fatal; a fresh hub lists nothing.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { apiHandler } from "../../test/api";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { forgetSettings } from "../config";
import { markdownOf, type ExperimentReport } from "./report";
import { fileNameOf, listSavedExperiments, saveExperiment } from "./saved";

const GET = apiHandler("GET", "/api/experiments");
// The hub's own folder, whatever the shell running the tests set (an empty value counts as none).
vi.stubEnv("QUORUM_EXPERIMENTS_DIR", "");
forgetSettings();
const elsewhere = mkdtempSync(join(tmpdir(), "quorum-experiments-"));
afterAll(() => {
  vi.unstubAllEnvs();
  forgetSettings();
  rmSync(elsewhere, { recursive: true, force: true });
});

function report(ranAt: string, seed: number): ExperimentReport {
  return {
    experiment: "reflection",
    title: "Reflection",
    question: "Is a self-critique worth it?",
    ranAt,
    seconds: 0.4,
    parameters: { tasks: 2000, seed },
    command: `npm run quorum -- experiment reflection --tasks 2000 --seed ${seed}`,
    columns: ["quantity", "exact"],
    rows: [["saving | per task", "34"]],
    notes: ["a note"],
  };
}

describe("saved experiments", () => {
  it("a fresh hub lists none, not the tables that came with the repository, then what was run on it, newest first, to any signed-in principal", async () => {
    // The repository's own lab notebook is there, and is not this hub's.
    expect(readdirSync(join(import.meta.dirname, "..", "..", "bench", "results", "experiments")).some((name) => name.endsWith(".json"))).toBe(true);
    const human = await makeHuman();
    const fresh = await call(GET, "/api/experiments", { cookie: human.cookie });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ items: [], unreadable: [] });
    expect(fresh.body.experiments.map((e: { name: string }) => e.name)).toEqual(["bakeoff", "zero-intelligence", "gates", "reflection"]);

    const hubFolder = join(process.env.QUORUM_HOME!, "experiments");
    const older = saveExperiment(hubFolder, report("2026-01-01T10:00:00.000Z", 1));
    saveExperiment(hubFolder, report("2026-01-02T10:00:00.000Z", 2));
    writeFileSync(join(hubFolder, "notes.json"), '{"not": "a result"}');
    expect(older).toBe(join(hubFolder, "reflection-2026-01-01-tasks-2000-seed-1.md"));
    const answer = await call(GET, "/api/experiments", { cookie: human.cookie });
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((i: ExperimentReport) => i.parameters.seed)).toEqual([2, 1]);
    expect(answer.body.items[1]).toMatchObject({ file: "reflection-2026-01-01-tasks-2000-seed-1.md", command: "npm run quorum -- experiment reflection --tasks 2000 --seed 1" });
    expect(answer.body.unreadable).toEqual(["notes.json"]);
    expect((await call(GET, "/api/experiments", { key: (await makeAgent()).key })).status).toBe(200);
    expect((await call(GET, "/api/experiments")).status).toBe(401);
  });

  it("reads QUORUM_EXPERIMENTS_DIR instead when it is set, and a folder that does not exist yet lists nothing", async () => {
    vi.stubEnv("QUORUM_EXPERIMENTS_DIR", elsewhere);
    forgetSettings();
    saveExperiment(elsewhere, report("2026-01-05T10:00:00.000Z", 5));
    const human = await makeHuman();
    const answer = await call(GET, "/api/experiments", { cookie: human.cookie });
    expect(answer.body.items.map((i: ExperimentReport) => i.parameters.seed)).toEqual([5]);
    expect(listSavedExperiments(join(elsewhere, "nowhere"))).toMatchObject({ items: [], unreadable: [] });
  });

  it("writes Markdown a reader can paste, with the pipes in cells escaped, and names a rerun with the same parameters the same", () => {
    const text = markdownOf(report("2026-01-03T10:00:00.000Z", 3));
    expect(text).toContain("| quantity | exact |\n|---|---|\n| saving \\| per task | 34 |");
    expect(text).toContain("Reproduce: `npm run quorum -- experiment reflection --tasks 2000 --seed 3`");
    expect(fileNameOf(report("2026-01-03T10:00:00.000Z", 3))).toBe(fileNameOf(report("2026-01-03T18:00:00.000Z", 3)));
  });
});

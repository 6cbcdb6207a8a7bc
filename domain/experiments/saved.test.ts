// The experiments' saved tables as the Experiments page reads them (GET /api/experiments): every result in the
// folder, newest first, with when it ran, its parameters and the command that reproduces it; a file that is no
// result is named, not fatal; an empty or missing folder lists nothing.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { apiHandler } from "../../test/api";

const folder = mkdtempSync(join(tmpdir(), "quorum-experiments-"));
vi.stubEnv("QUORUM_EXPERIMENTS_DIR", folder);

const { afterAll, describe, expect, it } = await import("vitest");
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const GET = apiHandler("GET", "/api/experiments");
const { call, makeAgent, makeHuman } = await import("../../test/helpers");
const { fileNameOf, listSavedExperiments, saveExperiment } = await import("./saved");
const { markdownOf } = await import("./report");
type ExperimentReport = import("./report").ExperimentReport;

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
  it("lists what was saved, newest first, to any signed-in principal", async () => {
    expect(listSavedExperiments(join(folder, "nowhere"))).toMatchObject({ items: [], unreadable: [] });
    expect(listSavedExperiments(join(folder, "nowhere")).experiments.map((e) => e.name)).toEqual(["bakeoff", "zero-intelligence", "gates", "reflection"]);
    const older = saveExperiment(folder, report("2026-01-01T10:00:00.000Z", 1));
    saveExperiment(folder, report("2026-01-02T10:00:00.000Z", 2));
    writeFileSync(join(folder, "notes.json"), '{"not": "a result"}');
    expect(older).toBe(join(folder, "reflection-2026-01-01-tasks-2000-seed-1.md"));
    const human = await makeHuman();
    const answer = await call(GET, "/api/experiments", { cookie: human.cookie });
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((i: ExperimentReport) => i.parameters.seed)).toEqual([2, 1]);
    expect(answer.body.items[1]).toMatchObject({ file: "reflection-2026-01-01-tasks-2000-seed-1.md", command: "npm run quorum -- experiment reflection --tasks 2000 --seed 1" });
    expect(answer.body.unreadable).toEqual(["notes.json"]);
    expect((await call(GET, "/api/experiments", { key: (await makeAgent()).key })).status).toBe(200);
    expect((await call(GET, "/api/experiments")).status).toBe(401);
  });

  it("writes Markdown a reader can paste, with the pipes in cells escaped, and names a rerun with the same parameters the same", () => {
    const text = markdownOf(report("2026-01-03T10:00:00.000Z", 3));
    expect(text).toContain("| quantity | exact |\n|---|---|\n| saving \\| per task | 34 |");
    expect(text).toContain("Reproduce: `npm run quorum -- experiment reflection --tasks 2000 --seed 3`");
    expect(fileNameOf(report("2026-01-03T10:00:00.000Z", 3))).toBe(fileNameOf(report("2026-01-03T18:00:00.000Z", 3)));
  });
});

// Seed 003's bake-off (`quorum experiment bakeoff --tasks 6`), with real agent processes SIGKILLed at the seeded
// points: arm B loses nothing and stores no result twice; arm M keeps only the runs killed after their handoff.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getConnection } from "../../db/client";
import { contextOf } from "../../domain/context";
import { bakeoffExperiment, bakeoffParameters } from "./bakeoff";
import { corpusOf, killPlanOf } from "./bakeoff-corpus";
import type { ExperimentContext } from "./experiment";

const quorumFolder = fileURLToPath(new URL("../..", import.meta.url));

describe("the bake-off", () => {
  it("draws the same corpus and the same kills from the same seed, one run in twelve and at least one", () => {
    expect(corpusOf(48, 7)).toEqual(corpusOf(48, 7));
    expect(killPlanOf(corpusOf(48, 7), 7)).toEqual(killPlanOf(corpusOf(48, 7), 7));
    expect(killPlanOf(corpusOf(48, 7), 7).size).toBe(4);
    expect(killPlanOf(corpusOf(6, 3), 3).size).toBe(1);
    for (const [task, k] of killPlanOf(corpusOf(48, 7), 7)) expect(k).toBeLessThanOrEqual(corpusOf(48, 7)[task - 1].documents.length);
  });

  it("recovers every killed run through leases and stored output (B); handoff by messages keeps only those killed after their handoff (M)", { timeout: 300_000 }, async () => {
    const params = bakeoffParameters.parse({ tasks: "6", seed: "5", workers: "3" });
    const plan = killPlanOf(corpusOf(params.tasks, params.seed), params.seed);
    const [[task, point]] = [...plan];
    const afterHandoff = point === corpusOf(params.tasks, params.seed)[task - 1].documents.length;
    const scratch = mkdtempSync(join(tmpdir(), "quorum-bakeoff-"));
    const lines: string[] = [];
    const ctx: ExperimentContext = {
      database: { server: contextOf(getConnection()), url: process.env.DATABASE_URL! },
      scratch,
      quorumFolder,
      progress: (line) => lines.push(line),
    };
    try {
      const table = await bakeoffExperiment.run(ctx, params);
      const [m, b] = table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i]])));
      expect(b).toMatchObject({ tasks: "6", kills: "1", recovered: "1", lost: "0", duplicated: "0" });
      // A recovered run in B waited for its lease: the added time is a few seconds, not nothing.
      expect(Number.parseFloat(b["added wall-clock (median)"])).toBeGreaterThan(1);
      expect(m).toMatchObject({ tasks: "6", kills: "1", recovered: afterHandoff ? "1" : "0", lost: afterHandoff ? "0" : "1", duplicated: "0" });
      for (const arm of [m, b]) {
        expect(Number(arm["reads per task"])).toBeGreaterThan(0);
        expect(Number(arm["writes per task"])).toBeGreaterThan(1);
      }
      // The kill was real and was said as it happened, in both arms.
      expect(lines.filter((l) => l.includes(`killed the run of task #${task}`))).toHaveLength(2);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

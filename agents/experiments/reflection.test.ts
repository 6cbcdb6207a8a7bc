// Seed 000 Ex 8 (`quorum experiment reflection`): the exact figures follow from the parameters, the simulation
// lands within its stated tolerance of them, and the break-even points are where the saving vanishes.
import { describe, expect, it } from "vitest";
import { Fraction } from "./fraction";
import { reflectionFigures, reflectionParameters, reflectionTable, simulateReflection } from "./reflection";

const defaults = reflectionParameters.parse({ tasks: "20000" });

describe("reflection", () => {
  it("states the exercise's figures exactly: 140 without a critique, 106 with it, break-even at 64 tokens or a defect rate of 3/16", () => {
    const exact = reflectionFigures(defaults);
    expect(exact.withoutCritique.toString()).toBe("140");
    expect(exact.withCritique.toString()).toBe("106");
    expect(exact.saving.toString()).toBe("34");
    expect(exact.breakEvenPrice.toString()).toBe("64");
    expect(exact.breakEvenDefectRate.toString()).toBe("3/16");
    expect(exact.pays).toBe(true);
    // The rework is paid either way, so it cannot change the choice: only u_r against p·f·u_v does.
    for (const w of ["0", "150", "5000"]) expect(reflectionFigures({ ...defaults, w }).saving.toString()).toBe("34");
    // At the break-even price the critique saves nothing; past it, it costs.
    expect(reflectionFigures({ ...defaults, ur: "64" }).saving.toString()).toBe("0");
    expect(reflectionFigures({ ...defaults, ur: "65" }).pays).toBe(false);
    expect(reflectionFigures({ ...defaults, p: "0.1875" }).saving.toString()).toBe("0");
  });

  it("lands each simulated mean within 4 standard errors of its exact figure, seed after seed", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const params = { ...defaults, seed };
      const exact = reflectionFigures(params);
      const simulated = simulateReflection(params);
      const pairs: [number, { mean: number; tolerance: number }][] = [
        [exact.withoutCritique.toNumber(), simulated.withoutCritique],
        [exact.withCritique.toNumber(), simulated.withCritique],
        [exact.saving.toNumber(), simulated.saving],
        [0, simulated.savingAtBreakEvenPrice],
        [0, simulated.savingAtBreakEvenRate],
      ];
      for (const [figure, { mean, tolerance }] of pairs) {
        expect(Math.abs(mean - figure)).toBeLessThanOrEqual(tolerance);
        // The tolerance is a few tokens at this size, not a blank cheque.
        expect(tolerance).toBeLessThan(6);
      }
      // The same seed throws the same dice.
      expect(simulateReflection(params)).toEqual(simulated);
    }
  });

  it("says so in its table, and follows other parameters (a rare defect does not pay for a critique)", () => {
    const table = reflectionTable(defaults);
    expect(table.rows.map((r) => r[2])).toEqual(["140", "106", "34", "64", "3/16 (0.1875)", "30 < 64: yes"]);
    expect(table.rows.slice(0, 5).map((r) => r[4])).toEqual(["yes", "yes", "yes", "yes", "yes"]);
    const rare = reflectionTable(reflectionParameters.parse({ tasks: "20000", p: "0.1" }));
    expect(rare.rows[2][2]).toBe("-14");
    expect(rare.rows[5][2]).toBe("30 < 16: no");
  });

  it("reads decimals as the fractions they name, and refuses what is not one", () => {
    expect(Fraction.parse("0.4").toString()).toBe("2/5");
    expect(Fraction.parse("0.1").plus(Fraction.parse("0.2")).toString()).toBe("3/10");
    expect(reflectionParameters.safeParse({ p: "4e-1" }).success).toBe(false);
    expect(reflectionParameters.safeParse({ p: "1.5" }).success).toBe(false);
    expect(reflectionParameters.safeParse({ f: "0" }).success).toBe(false);
    expect(reflectionParameters.safeParse({ tasks: "ten" }).success).toBe(false);
  });
});

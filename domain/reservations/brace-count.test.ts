// The brace count, taken from the text alone, is exact for ordinary patterns and never below what
// `braces` expands to, so the cap is enforced before anything is expanded.
import braces from "braces";
import { describe, expect, it } from "vitest";
import { braceExpansionCount } from "./brace-count";

const expandedCount = (pattern: string) => new Set(braces(pattern, { expand: true })).size;

describe("braceExpansionCount", () => {
  it("counts sets, ranges, steps, letters and nesting exactly", () => {
    const cases: [string, number][] = [
      ["src/**", 1],
      ["src/{a,b}/x.ts", 2],
      ["src/{a,b}/{c,d,e}.ts", 6],
      ["file{1..3}.ts", 3],
      ["file{1..10..3}.ts", 4],
      ["{a..e}", 5],
      ["{a,{b,c}}/x", 3],
      ["{a}", 1],
      ["{a,b", 1],
      ["x{-2..2}", 5],
    ];
    for (const [pattern, count] of cases) {
      expect(braceExpansionCount(pattern), pattern).toBe(count);
      expect(expandedCount(pattern), pattern).toBeLessThanOrEqual(count);
    }
  });

  it("sees the products that froze the server without expanding them", () => {
    expect(braceExpansionCount("{a,b}".repeat(18))).toBe(2 ** 18);
    expect(braceExpansionCount("{1..64}{1..64}{1..64}")).toBe(64 ** 3);
    expect(braceExpansionCount("{a,b}".repeat(2000))).toBe(Number.POSITIVE_INFINITY);
  });

  it("is never below what braces expands to, over random small patterns", () => {
    const atoms = ["a", "b", ",", "{", "}", "{a,b}", "{1..3}", "/"];
    let state = 29;
    const next = () => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    for (let i = 0; i < 5_000; i++) {
      const pattern = Array.from({ length: 1 + Math.floor(next() * 8) }, () => atoms[Math.floor(next() * atoms.length)]).join("");
      expect(braceExpansionCount(pattern), pattern).toBeGreaterThanOrEqual(expandedCount(pattern));
    }
  });
});

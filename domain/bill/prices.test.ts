// The price map: read from QUORUM_PRICES, a model's own price before "*", cached input at its own rate.
import { describe, expect, it } from "vitest";
import { costOf, costParts, priceConfig } from "./prices";

describe("the price map", () => {
  it("prices input, cached input and output per million tokens, falling back to '*'", () => {
    const { prices, problem, currency } = priceConfig({
      QUORUM_PRICES: '{"m1": {"input": 3, "output": 15, "cachedInput": 0.3}, "*": {"input": 1, "output": 2}}',
      QUORUM_CURRENCY: "EUR",
    });
    expect(problem).toBeNull();
    expect(currency).toBe("EUR");
    // 600 fresh input × 3 + 400 cached × 0.3 + 100 output × 15, per million.
    expect(costOf(prices, "m1", { inputTokens: 1000, cachedTokens: 400, outputTokens: 100 })).toBeCloseTo((600 * 3 + 400 * 0.3 + 100 * 15) / 1e6, 12);
    // Without a cached price, cached input costs half the input price (OpenAI's discount), a tenth for Anthropic's models.
    expect(costOf(prices, "other", { inputTokens: 1000, cachedTokens: 400, outputTokens: 100 })).toBeCloseTo((600 * 1 + 400 * 0.5 + 100 * 2) / 1e6, 12);
    expect(costOf(prices, "claude-sonnet", { inputTokens: 1000, cachedTokens: 400, outputTokens: 100 })).toBeCloseTo((600 * 1 + 400 * 0.1 + 100 * 2) / 1e6, 12);
    expect(costParts(prices, "m1", { inputTokens: 1000, cachedTokens: 400, outputTokens: 100 })!.cachedCost).toBeCloseTo((400 * 0.3) / 1e6, 12);
    expect(costOf(priceConfig({}).prices, "m1", { inputTokens: 1, cachedTokens: 0, outputTokens: 1 })).toBeNull();
  });

  it("reports a malformed map instead of failing, and prices nothing", () => {
    expect(priceConfig({ QUORUM_PRICES: "{not json" })).toMatchObject({ prices: {}, problem: "QUORUM_PRICES is not valid JSON" });
    const negative = priceConfig({ QUORUM_PRICES: '{"m1": {"input": -1, "output": 2}}' });
    expect(negative.prices).toEqual({});
    expect(negative.problem).toMatch(/^QUORUM_PRICES: m1\.input/);
    expect(priceConfig({ QUORUM_PRICES: '{"m1": {"input": 1, "output": 2, "extra": 3}}' }).problem).toMatch(/extra|Unrecognized/i);
  });
});

// The variables of docs/OPERATING.md's Configuration table, as domain/config.ts reads them: each default, each
// override, and what a value out of range or malformed does.
import { describe, expect, it } from "vitest";
import {
  appUrl,
  defaultLeaseSeconds,
  flightAtOnce,
  hubUrlSetting,
  leanApi,
  paceMs,
  priceSettings,
  quorumVariables,
  reviewDeadlineSetting,
  sweepersEnabled,
  teamEnabled,
  testCommandSetting,
  webHost,
  webPort,
} from "./config";

describe("the configuration", () => {
  it("addresses the hub at QUORUM_URL, else at http://127.0.0.1:$PORT (3000 by default), bound to QUORUM_HOST (127.0.0.1)", () => {
    expect(appUrl.from({})).toBe("http://127.0.0.1:3000");
    expect(appUrl.from({ PORT: "4100" })).toBe("http://127.0.0.1:4100");
    expect(appUrl.from({ PORT: "4100", QUORUM_URL: "https://quorum.example.com" })).toBe("https://quorum.example.com");
    expect(hubUrlSetting.from({ PORT: "4100" })).toBeUndefined();
    expect([webPort.from({}), webHost.from({})]).toEqual(["3000", "127.0.0.1"]);
    expect([webPort.from({ PORT: "8080" }), webHost.from({ QUORUM_HOST: "0.0.0.0" })]).toEqual(["8080", "0.0.0.0"]);
  });

  it("leases for 30 minutes unless QUORUM_LEASE_SECONDS (5–86,400) or QUORUM_LEASE_MINUTES (1–1,440) says otherwise; seconds win", () => {
    expect(defaultLeaseSeconds.from({})).toBe(30 * 60);
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_MINUTES: "12" })).toBe(12 * 60);
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_MINUTES: "12", QUORUM_LEASE_SECONDS: "8" })).toBe(8);
    // Out of range or not a whole number: ignored, as if unset.
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_MINUTES: "12", QUORUM_LEASE_SECONDS: "4" })).toBe(12 * 60);
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_SECONDS: "86401" })).toBe(30 * 60);
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_MINUTES: "0" })).toBe(30 * 60);
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_MINUTES: "1441" })).toBe(30 * 60);
    expect(defaultLeaseSeconds.from({ QUORUM_LEASE_MINUTES: "2.5" })).toBe(30 * 60);
  });

  it("paces the scripted team by QUORUM_PACE_MS (4000 ms unless set; 0 for none) and refuses nonsense", () => {
    expect(paceMs.from({})).toBe(4_000);
    expect(paceMs.from({ QUORUM_PACE_MS: "0" })).toBe(0);
    expect(paceMs.from({ QUORUM_PACE_MS: "250" })).toBe(250);
    expect(() => paceMs.from({ QUORUM_PACE_MS: "fast" })).toThrow(/QUORUM_PACE_MS/);
    expect(() => paceMs.from({ QUORUM_PACE_MS: "-1" })).toThrow(/QUORUM_PACE_MS/);
  });

  it("hands the team worker QUORUM_TEST_COMMAND as argv and QUORUM_REVIEW_DEADLINE_SECONDS in milliseconds, or nothing when unset", () => {
    expect(testCommandSetting.from({ QUORUM_TEST_COMMAND: "  npm  test -- --reporter=dot " })).toEqual(["npm", "test", "--", "--reporter=dot"]);
    expect(testCommandSetting.from({ QUORUM_TEST_COMMAND: "   " })).toBeUndefined();
    expect(testCommandSetting.from({})).toBeUndefined();
    expect(reviewDeadlineSetting.from({ QUORUM_REVIEW_DEADLINE_SECONDS: "120" })).toBe(120_000);
    expect(reviewDeadlineSetting.from({})).toBeUndefined();
  });

  it("turns the team, the first flight's wait, the lean API router and the sweepers off or on only by their exact values", () => {
    expect([teamEnabled.from({}), teamEnabled.from({ QUORUM_TEAM: "0" }), teamEnabled.from({ QUORUM_TEAM: "no" })]).toEqual([true, false, true]);
    expect([flightAtOnce.from({}), flightAtOnce.from({ QUORUM_FLIGHT: "now" }), flightAtOnce.from({ QUORUM_FLIGHT: "1" })]).toEqual([false, true, false]);
    expect([leanApi.from({}), leanApi.from({ QUORUM_LEAN_API: "0" })]).toEqual([true, false]);
    expect([sweepersEnabled.from({}), sweepersEnabled.from({ QUORUM_SWEEPERS: "0" })]).toEqual([true, false]);
  });

  it("prices in QUORUM_CURRENCY (USD by default) from QUORUM_PRICES, and reports a malformed map without failing", () => {
    expect(priceSettings.from({})).toEqual({ currency: "USD", prices: {}, problem: null });
    expect(priceSettings.from({ QUORUM_CURRENCY: "EUR", QUORUM_PRICES: '{"m1": {"input": 1, "output": 2}}' })).toEqual({
      currency: "EUR",
      prices: { m1: { input: 1, output: 2 } },
      problem: null,
    });
    expect(priceSettings.from({ QUORUM_PRICES: "{not json" }).problem).toBe("QUORUM_PRICES is not valid JSON");
  });

  it("hands the model seam Quorum's own variables only", () => {
    const seen = quorumVariables.from({ QUORUM_MODEL: "m", QUORUM_MODEL_TIMEOUT_MS: "5000", DATABASE_URL: "postgres://x", PATH: "/bin", OTHER_API_KEY: "k" });
    expect(seen).toEqual({ QUORUM_MODEL: "m", QUORUM_MODEL_TIMEOUT_MS: "5000" });
  });
});

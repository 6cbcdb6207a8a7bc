// The stall detector: silence past three heartbeats is a lost stream, well inside the 25 s the UI promises.
import { describe, expect, it } from "vitest";
import { DEFAULT_HEARTBEAT_MS, heartbeatOf, isStalled, STALL_CHECK_MS, stallAfterMs } from "./live-stall";

describe("the live stream's stall detector", () => {
  it("calls a stream lost after three missed heartbeats, not after one late one", () => {
    const beat = DEFAULT_HEARTBEAT_MS;
    expect(isStalled(0, beat + 500, beat)).toBe(false);
    expect(isStalled(0, 2 * beat + 500, beat)).toBe(false);
    expect(isStalled(0, 3 * beat + 1, beat)).toBe(true);
  });

  it("shows Reconnecting… within 25 s of a server that stops answering", () => {
    // The last frame came at most one beat before the server stopped; the check runs every STALL_CHECK_MS.
    const worst = DEFAULT_HEARTBEAT_MS + stallAfterMs(DEFAULT_HEARTBEAT_MS) + STALL_CHECK_MS;
    expect(worst).toBeLessThanOrEqual(25_000);
  });

  it("reads the period the server announces in ready, and falls back for anything else", () => {
    expect(heartbeatOf('{"heartbeatMs":2000}')).toBe(2000);
    for (const data of ["{}", "", "not json", '{"heartbeatMs":-1}', '{"heartbeatMs":"5"}']) expect(heartbeatOf(data)).toBe(DEFAULT_HEARTBEAT_MS);
    expect(stallAfterMs(10)).toBe(3_000);
  });
});

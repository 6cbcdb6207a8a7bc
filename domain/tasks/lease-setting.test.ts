// A hub started with QUORUM_LEASE_SECONDS=8 and QUORUM_LEASE_MINUTES=12 (as chaos/hosts starts its instances):
// the seconds win, and every lease path uses them — claim-next, claim by id, heartbeat, the stall time a task
// view shows — while a task's own length still comes first. domain/config.ts reads the environment once, on
// first use, so the variables are set here before any test runs (each test file loads its modules afresh).
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { claimTask } from "./claim";
import { claimNextTask } from "./claim-next";
import { heartbeat } from "./heartbeat";

vi.stubEnv("QUORUM_LEASE_SECONDS", "8");
vi.stubEnv("QUORUM_LEASE_MINUTES", "12");
afterAll(() => void vi.unstubAllEnvs());

describe("the configured default lease", () => {
  it("QUORUM_LEASE_SECONDS wins over QUORUM_LEASE_MINUTES on every lease path; a task's own length still comes first", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada, bob],
    } = await makeTeam(2);
    const global = await makeReadyTask(lead, {}, clock);
    const next = await claimNextTask(db, ada, clock);
    expect(next?.id).toBe(global.id);
    expect(Date.parse(next!.leaseExpiresAt!)).toBe(clock.now().getTime() + 8_000);
    // A holder counts as stalled past half its lease.
    expect(Date.parse(next!.stallsAt!)).toBe(clock.now().getTime() + 4_000);
    clock.advance(3_000);
    const renewed = await heartbeat(db, ada, global.id, { fence: next!.fence }, clock);
    expect(Date.parse(renewed.leaseExpiresAt!)).toBe(clock.now().getTime() + 8_000);

    const plain = await makeReadyTask(lead, {}, clock);
    expect(Date.parse((await claimTask(db, bob, plain.id, clock)).leaseExpiresAt!)).toBe(clock.now().getTime() + 8_000);
    const own = await makeReadyTask(lead, { leaseMinutes: 2 }, clock);
    expect(Date.parse((await claimTask(db, bob, own.id, clock)).leaseExpiresAt!)).toBe(clock.now().getTime() + 2 * 60_000);
  });
});

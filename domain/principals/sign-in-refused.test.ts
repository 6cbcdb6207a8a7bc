// A refused sign-in link says why: used, expired or unknown.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { makeHuman } from "../../test/helpers";
import { manualClock } from "../clock";
import { issueSignInLink, redeemSignInLink, refusedLinkReason } from "./sign-in";

describe("a refused sign-in link", () => {
  it("is used once redeemed, expired after 15 minutes, unknown when never issued", async () => {
    const clock = manualClock();
    const db = getDb();
    const human = await makeHuman();
    const spent = await issueSignInLink(db, human, clock);
    await redeemSignInLink(db, spent, clock);
    await expect(redeemSignInLink(db, spent, clock)).rejects.toThrow(/unknown, used or expired/);
    expect(await refusedLinkReason(db, spent, clock)).toBe("used");

    const stale = await issueSignInLink(db, human, clock);
    clock.advance(15 * 60_000);
    await expect(redeemSignInLink(db, stale, clock)).rejects.toThrow(/unknown, used or expired/);
    expect(await refusedLinkReason(db, stale, clock)).toBe("expired");

    expect(await refusedLinkReason(db, "qs_never-issued", clock)).toBe("unknown");
  });
});

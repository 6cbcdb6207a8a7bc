import { describe, expect, it } from "vitest";
import { isInwardAddress } from "./outside-only";

describe("which addresses are inward", () => {
  it("refuses loopback, private, link-local, mapped and unspecified addresses, and lets public ones through", () => {
    for (const inward of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.9",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fd00::2",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:93.184.216.34",
      "not an address",
    ]) {
      expect(isInwardAddress(inward), inward).toBe(true);
    }
    // node's BlockList once matched every IPv4 address against the IPv4-mapped IPv6 rule: public ones must pass.
    for (const outside of ["93.184.216.34", "203.0.113.80", "8.8.8.8", "2606:2800:220:1::1"]) {
      expect(isInwardAddress(outside), outside).toBe(false);
    }
  });
});

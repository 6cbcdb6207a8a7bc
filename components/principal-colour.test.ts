// One colour per principal: the first dozen are all distinct, whatever order the list arrives in.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assignSlots, PALETTE } from "./principal-colour";

describe("principal colours", () => {
  it("gives a dozen principals twelve different colours, the same in any order", () => {
    for (let round = 0; round < 20; round++) {
      const ids = Array.from({ length: 12 }, () => randomUUID());
      const slots = assignSlots(ids);
      expect(new Set(slots.values()).size).toBe(12);
      expect(assignSlots([...ids].reverse())).toEqual(slots);
    }
    expect(PALETTE).toHaveLength(12);
    expect(new Set(PALETTE.map((c) => c.avatar)).size).toBe(12);
  });
});

// One colour per principal: the first dozen are all distinct, and each keeps its colour when others arrive.
import { describe, expect, it } from "vitest";
import { colourAt, PALETTE } from "./principal-colour";

describe("principal colours", () => {
  it("gives the first dozen principals twelve different colours, neighbours in different hues", () => {
    expect(PALETTE).toHaveLength(12);
    const avatars = Array.from({ length: 12 }, (_, order) => colourAt(order).avatar);
    expect(new Set(avatars).size).toBe(12);
    // A team is created together and ordered by name: its members sit side by side in the palette.
    const hue = (avatar: string) => avatar.split("-")[1];
    for (let order = 0; order < 12; order++) expect(hue(colourAt(order).avatar)).not.toBe(hue(colourAt(order + 1).avatar));
    expect(colourAt(13)).toBe(colourAt(1));
  });
});

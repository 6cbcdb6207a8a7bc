// Keys from content: unique even when items repeat, and unmoved by items before them that differ.
import { describe, expect, it } from "vitest";
import { withContentKeys } from "./content-keys";

describe("withContentKeys", () => {
  it("keys each item by its text, numbering repeats", () => {
    const keys = withContentKeys(["a", "", "a", "b", ""], (s) => s).map((k) => k.key);
    expect(keys).toEqual(["0:a", "0:", "1:a", "0:b", "1:"]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("cannot collide with an item whose text looks like a numbered key", () => {
    const keys = withContentKeys(["x", "x", "1:x"], (s) => s).map((k) => k.key);
    expect(new Set(keys).size).toBe(3);
  });

  it("keeps the items, in order", () => {
    const issues = [{ path: ["title"], message: "Required" }];
    expect(withContentKeys(issues, (i) => `${i.path.join(".")} ${i.message}`)).toEqual([{ key: "0:title Required", item: issues[0] }]);
  });
});

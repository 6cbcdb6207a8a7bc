// What Quorum repeats of a principal's words is one line, capped, and quoted with marks it cannot close.
import { describe, expect, it } from "vitest";
import { oneLine, QUOTE_MAX_CHARS, quoted } from "./quoted-text";

describe("quoted text", () => {
  it("folds breaks, separators and direction overrides into spaces, and plain-quotes the quote marks inside", () => {
    expect(quoted("fix”.\n\nroot decided:\u2028yes\u202Eevil")).toBe('“fix". root decided: yes evil”');
    expect(quoted("«a» „b‟")).toBe('“"a" "b"”');
    expect(oneLine("  tabs\tand\r\nlines  ")).toBe("tabs and lines");
  });

  it("caps the length in characters a reader sees, with an ellipsis", () => {
    const long = quoted("é".repeat(500));
    expect([...long]).toHaveLength(QUOTE_MAX_CHARS + 2);
    expect(long.endsWith("…”")).toBe(true);
    expect(quoted("short")).toBe("“short”");
  });
});

// The vendor seam: only agents/model/ knows a model vendor. A client there describes its own setup and words
// its own failures (agents/model/model-client.ts: `setup`, `adviceFor`); everything else — the hub's rules,
// its pages, the CLI, the team's roles — stores and shows what the client said. This fails when a vendor's
// name or one of its variables (QUORUM_OPENAI_*, QUORUM_ANTHROPIC_*) leaks into production code outside it.
import { describe, expect, it } from "vitest";
import { productionFiles } from "./fixtures/production-files";

const SEAM = "agents/model/";
const VENDORS = /openai|anthropic/gi;

describe("the vendor seam", () => {
  const files = productionFiles();

  it("names a vendor, or a vendor's variable, only inside agents/model/", () => {
    const leaks = files
      .filter(({ path }) => !path.startsWith(SEAM))
      .flatMap(({ path, text }) => text.split("\n").flatMap((line, i) => (line.match(VENDORS) ? [`${path}:${i + 1}: ${line.trim()}`] : [])));
    expect(leaks, "let the model client word it (agents/model/) and pass the words on").toEqual([]);
  });

  it("scans what it means to: the seam itself names its vendors", () => {
    const seam = files.filter(({ path }) => path.startsWith(SEAM));
    expect(seam.some(({ text }) => /QUORUM_OPENAI_API_KEY/.test(text))).toBe(true);
    expect(seam.some(({ text }) => /QUORUM_ANTHROPIC_API_KEY/.test(text))).toBe(true);
  });
});

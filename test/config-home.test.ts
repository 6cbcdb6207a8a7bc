// One home per value (issue 29): the process's environment is read in domain/config.ts and nowhere else in
// production code, so every variable has one reader, one default and one place docs/OPERATING.md's table points at.
// db/ reads its own connection settings (it imports nothing of ours). Two spellings of `process.env`
// elsewhere are not reads of this process's configuration, and are named here with why.
import { describe, expect, it } from "vitest";
import { productionFiles } from "./fixtures/production-files";

/** The modules that read the environment. */
const CONFIG_MODULES = ["domain/config.ts", "db/client.ts", "db/embedded.ts", "db/home.ts"];

/** `process.env.NAME` spelled out elsewhere, by file, and why it is not a read of Quorum's configuration. */
const NOT_CONFIGURATION: Record<string, { names: string[]; why: string }> = {
  "instrumentation.ts": { names: ["NEXT_RUNTIME"], why: "Next replaces it at build time, which keeps the Node-only imports out of the Edge bundle" },
  "bin/hook-script.ts": { names: ["QUORUM_URL", "QUORUM_KEY", "QUORUM_SCOPE"], why: "the text of the pre-commit hook it writes, which runs in another repository" },
};

/** Each `process.env` in a file: the name it reads (`null` for the whole environment or a computed name). */
function environmentReads(text: string): (string | null)[] {
  return [...text.matchAll(/process\.env\b(?:\.([A-Za-z_][A-Za-z0-9_]*))?/g)].map((match) => match[1] ?? null);
}

describe("the environment's one home", () => {
  const files = productionFiles();

  it("is read by the config modules only", () => {
    const strays = files.flatMap(({ path, text }) => {
      if (CONFIG_MODULES.includes(path)) return [];
      const allowed = NOT_CONFIGURATION[path]?.names ?? [];
      return environmentReads(text)
        .filter((name) => name === null || !allowed.includes(name))
        .map((name) => `${path}: process.env${name ? `.${name}` : ""}`);
    });
    expect(strays, "read it in domain/config.ts and pass the value in").toEqual([]);
  });

  it("scans what it means to: the config module reads the environment, and each exception is still there", () => {
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining([...CONFIG_MODULES, ...Object.keys(NOT_CONFIGURATION)]));
    expect(environmentReads(files.find((file) => file.path === "domain/config.ts")!.text).length).toBeGreaterThan(0);
    for (const [path, { names }] of Object.entries(NOT_CONFIGURATION)) {
      expect(new Set(environmentReads(files.find((file) => file.path === path)!.text)), path).toEqual(new Set(names));
    }
  });
});

// `quorum --help` lists every command the CLI dispatches, each with its line: read from the dispatch itself,
// so a new command without a line in the usage fails here.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("quorum --help", () => {
  it("names every command the CLI answers", () => {
    const source = readFileSync(`${root}/bin/quorum.ts`, "utf8");
    const commands = new Set([...source.matchAll(/(?:command|argv\[0\]) === "([a-z-]+)"/g)].map((m) => m[1]));
    expect(commands.size).toBeGreaterThanOrEqual(14);
    const help = execFileSync(process.execPath, ["--import", "tsx", "bin/quorum.ts", "--help"], { cwd: root, encoding: "utf8", env: { ...process.env, DATABASE_URL: "" } });
    for (const command of commands) expect(help, command).toMatch(new RegExp(`^\\s+quorum ${command}\\b`, "m"));
  });
});

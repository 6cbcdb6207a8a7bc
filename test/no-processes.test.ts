// test:fast's guard (test/no-processes.ts): git runs, in every form the code calls it, and any other command is
// refused with the list to put its test on. A file of its own process: the guard patches child_process for good.
import { execFile, execFileSync, spawn } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import "./no-processes";

describe("test:fast's process guard", () => {
  it("lets git run, synchronously and through promisify, with git's own answer", async () => {
    expect(execFileSync("git", ["--version"], { encoding: "utf8" })).toMatch(/^git version/);
    const { stdout } = await promisify(execFile)("git", ["--version"]);
    expect(stdout).toMatch(/^git version/);
  });

  it("refuses any other command, however it is started, naming processTests", async () => {
    expect(() => spawn("node", ["-e", "0"])).toThrow(/processTests/);
    expect(() => execFileSync("sh", ["-c", "true"])).toThrow(/processTests/);
    await expect(async () => promisify(execFile)("node", ["-e", "0"])).rejects.toThrow(/processTests/);
  });
});

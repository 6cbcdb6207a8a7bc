// `quorum flight start|list` from a terminal: a flight on a folder named relative to where it was typed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScratchRepo } from "../agents/demo/scratch-repo";
import { getDb } from "../db/client";
import { systemClock } from "../domain/clock";
import { announceTeamStarted, ensureTeamMember } from "../domain/flights/team-members";
import { flightListCommand, flightStartCommand } from "./flight";

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

describe("quorum flight", () => {
  it("starts a flight on a repository named from where the command was typed, and lists it", async () => {
    const db = getDb();
    await ensureTeamMember(db, "orchestrator", "orchestrator", 1000, systemClock);
    await announceTeamStarted(db, ["orchestrator", "coder", "reviewer", "tester"], "openai-compatible:stand-in", systemClock);
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-cli-flight-")));
    const out = capture();
    const options = { repo: basename(repo), goal: "Make parse('') return []", setup: "npm install --no-audit", allowance: "90000" };
    expect(await flightStartCommand(db, "cli-human", dirname(repo), options, out.print)).toBe(0);
    expect(out.lines[0]).toMatch(
      new RegExp(
        `^Flight (\\d+) started on ${repo}: the team integrates into quorum/flight-\\1 \\(from [0-9a-f]{7}\\), setup: npm install --no-audit \\(given\\), tests: npm test\\.$`,
      ),
    );
    expect(out.lines[1]).toMatch(/^Its goal is task #\d+; watch it at http:\/\/.+\/board\/\d+$/);
    const listed = capture();
    expect(await flightListCommand(db, listed.print)).toBe(0);
    expect(listed.lines[0]).toMatch(/planning +quorum\/flight-\d+ +0\/0 tasks done {2}0 of 90,000 tokens {2}Make parse\(''\) return \[\]/);
  });

  it("says what is missing and exits 2", async () => {
    const out = capture();
    expect(await flightStartCommand(getDb(), "cli-human", tmpdir(), { goal: "g" }, out.print)).toBe(2);
    expect(out.lines[0]).toMatch(/^quorum flight start: repo: /);
  });

  it("keeps a repository's URL as given, and refuses --draft on a folder, saying why", async () => {
    const out = capture();
    // Nothing listens on port 9: the refusal names the URL as typed, not a folder under where it was typed.
    await expect(flightStartCommand(getDb(), "cli-human", tmpdir(), { repo: "http://127.0.0.1:9/team/app.git", goal: "g" }, out.print)).rejects.toThrow(
      /http:\/\/127\.0\.0\.1:9\/team\/app\.git/,
    );
    await expect(flightStartCommand(getDb(), "cli-human", tmpdir(), { repo: ".", goal: "g", draft: true }, out.print)).rejects.toThrow(
      /a draft pull request needs a repository on a forge/,
    );
  });
});

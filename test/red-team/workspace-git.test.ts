// Red team (issue 41): the hub's own git, run as the hub's user on a task's worktree, never obeys what the
// workpiece wrote there. A test script or a prompt-injected model that could write the worktree tries every
// way git reads configuration: a rewritten `.git` file pointing at a git dir of its own (fsmonitor, hooks,
// filters, diff and merge drivers, includeIf, core.sshCommand, a pager), a nested repository with its own
// fsmonitor, `.gitattributes` naming drivers, and the hub user's global config including a file from the
// worktree. Every host-side operation of a flight then runs; each test fails if any planted command ran.
import { tmpdir } from "node:os";
import { vi } from "vitest";

// The hub's user has a global git config that includes a file from wherever it is pointed: the worktree's.
// In the test file's own temporary folder (test/setup-database.ts), removed with it.
const hubHome = `${tmpdir()}/quorum-hub-home-${process.pid}-${Date.now()}`;
vi.stubEnv("HOME", hubHome);
vi.stubEnv("XDG_CONFIG_HOME", `${hubHome}/.config`);

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  branchDiff,
  commitAndDiff,
  discardWorktree,
  ensureWorktree,
  mergeIntoFlight,
  publishFlightBranch,
  restartFromFlightBranch,
  suiteWorktree,
  treeOf,
  worktreeGit,
} from "../../agents/team/workspace";
import { listFilesTool } from "../../agents/tools/list-files";
import { createToolbox } from "../../agents/tools/toolbox";
import { quorumHomePath } from "../../domain/config";
import type { FlightPlace } from "../../domain/flights/place";
import { readGitDiff } from "../../domain/flights/task-diff";
import { inspectRepository } from "../../domain/flights/repository";
import { fixtureRepo } from "../fixtures/repos";

/** Where a planted command would leave its mark: a folder outside every repository. */
const marks = mkdtempSync(join(tmpdir(), "quorum-marks-"));
const mark = (name: string) => `touch ${join(marks, name)}`;

/** An attacker's git config: every setting through which git runs a command. */
function evilConfig(tag: string): string {
  return `[core]
\tfsmonitor = ${mark(`${tag}-fsmonitor`)}
\thooksPath = ${join(marks, `${tag}-hooks`)}
\tsshCommand = ${mark(`${tag}-ssh`)}
\tpager = ${mark(`${tag}-pager`)}
\teditor = ${mark(`${tag}-editor`)}
[filter "evil"]
\tclean = ${mark(`${tag}-clean`)}; cat
\tsmudge = ${mark(`${tag}-smudge`)}; cat
\tprocess = ${mark(`${tag}-process`)}
\trequired = false
[diff "evil"]
\ttextconv = ${mark(`${tag}-textconv`)}; cat
\tcommand = ${mark(`${tag}-diff`)}
[merge "evil"]
\tdriver = ${mark(`${tag}-merge`)}; true
[diff]
\texternal = ${mark(`${tag}-external`)}
[includeIf "gitdir:/"]
\tpath = ${join(marks, `${tag}-included.cfg`)}
`;
}

/** Hooks that would run on commit, merge, checkout and push. */
function evilHooks(tag: string): void {
  const dir = join(marks, `${tag}-hooks`);
  mkdirSync(dir, { recursive: true });
  for (const hook of ["pre-commit", "commit-msg", "post-commit", "post-checkout", "post-merge", "pre-push", "reference-transaction", "pre-auto-gc"]) {
    writeFileSync(join(dir, hook), `#!/bin/sh\n${mark(`${tag}-hook-${hook}`)}\n`, { mode: 0o755 });
  }
  writeFileSync(join(marks, `${tag}-included.cfg`), `[core]\n\tfsmonitor = ${mark(`${tag}-includeif`)}\n`);
}

function flight(): { place: FlightPlace; user: string } {
  const user = fixtureRepo("victim", {
    "package.json": JSON.stringify({ name: "victim", private: true, scripts: { test: "node --test" } }),
    "src/a.js": "export const a = 1;\n",
    "src/b.js": "export const b = 2;\n",
  });
  const head = execFileSync("git", ["-C", user, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  const repo = join(mkdtempSync(join(quorumHomePath(), "flights-")), "repo");
  const place: FlightPlace = {
    flightId: "f",
    number: 7,
    goalTaskId: "g",
    repo,
    source: user,
    remote: null,
    branch: "quorum/flight-7",
    baseCommit: head,
    testCommand: "npm test",
    mode: "scripted",
  };
  return { place, user };
}

const planted = () => readdirSync(marks).filter((name) => !name.endsWith("-hooks") && !name.endsWith(".cfg"));

/**
 * The control: plain git, as the hub ran it before issue 41, on the planted worktree. It must run a planted
 * command, or the test below it proves nothing. The marks are then cleared.
 */
function plainGitObeys(worktree: string): void {
  const env = { ...process.env, HOME: hubHome, XDG_CONFIG_HOME: join(hubHome, ".config") };
  for (const args of [["add", "-A"], ["status"], ["diff", "--cached"]]) {
    try {
      execFileSync("git", ["-C", worktree, "-c", "user.name=a", "-c", "user.email=a@a", ...args], { env, stdio: "ignore" });
    } catch {
      // a planted command may make git itself fail; what counts is whether it ran
    }
  }
  expect(planted().length).toBeGreaterThan(0);
  for (const name of planted()) rmSync(join(marks, name));
}

/** Everything a flight does with git on the hub, on task `taskId` whose worktree the attacker wrote. */
async function flyOn(place: FlightPlace, taskId: string, worktree: string, edit: () => void) {
  edit();
  plainGitObeys(worktree);
  const diff = commitAndDiff(place, worktree, "Task #1: change a");
  treeOf(place, worktree);
  branchDiff(place, taskId);
  const merged = mergeIntoFlight(place, taskId, "task #1", null);
  publishFlightBranch(place);
  await readGitDiff(place.repo, [`${place.baseCommit}...${place.branch}`]);
  suiteWorktree(place);
  restartFromFlightBranch(place, taskId);
  const toolbox = createToolbox([listFilesTool], { root: worktree, git: worktreeGit(place, worktree) });
  const prepared = toolbox.prepare({ id: "c", name: "list_files", arguments: {} }, { turn: 1, index: 0 });
  if (prepared.ok) await toolbox.execute(prepared.prepared, { runId: "r", agentId: "a", turn: 1, index: 0, attempt: 1 });
  await inspectRepository(place.source!);
  discardWorktree(place, taskId);
  return { diff, merged };
}

describe("host-side git on a worktree the workpiece wrote", () => {
  it("ignores a rewritten .git file pointing at the attacker's git dir, and commits to the task's branch all the same", async () => {
    const { place, user } = flight();
    const taskId = "11111111-1111-4111-8111-111111111111";
    const worktree = ensureWorktree(place, taskId);
    evilHooks("redirect");
    const { diff, merged } = await flyOn(place, taskId, worktree, () => {
      const evil = join(worktree, ".evil-git");
      execFileSync("git", ["init", "-q", "--bare", evil]);
      writeFileSync(join(evil, "config"), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${evilConfig("redirect").replace("[core]\n", "")}`);
      writeFileSync(join(worktree, ".git"), `gitdir: ${evil}\n`);
      writeFileSync(join(worktree, ".gitattributes"), "* filter=evil diff=evil merge=evil\n");
      writeFileSync(join(worktree, "src/a.js"), "export const a = 10;\n");
    });
    expect(planted()).toEqual([]);
    expect(diff).toContain("+export const a = 10;");
    expect(merged).toHaveProperty("commit");
    expect(execFileSync("git", ["-C", user, "show", `${place.branch}:src/a.js`], { encoding: "utf8" })).toBe("export const a = 10;\n");
  });

  it("ignores a nested repository's own fsmonitor and hooks (git status would recurse into it as a submodule)", async () => {
    const { place } = flight();
    const taskId = "22222222-2222-4222-8222-222222222222";
    const worktree = ensureWorktree(place, taskId);
    evilHooks("nested");
    await flyOn(place, taskId, worktree, () => {
      const nested = join(worktree, "vendor", "lib");
      mkdirSync(nested, { recursive: true });
      execFileSync("git", ["init", "-q", nested]);
      writeFileSync(join(nested, "x.js"), "x\n");
      execFileSync("git", ["-C", nested, "-c", "user.name=a", "-c", "user.email=a@a", "add", "-A"]);
      execFileSync("git", ["-C", nested, "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-qm", "x"]);
      writeFileSync(join(nested, ".git", "config"), evilConfig("nested"));
      writeFileSync(join(nested, "x.js"), "changed\n");
      writeFileSync(join(worktree, "src/b.js"), "export const b = 20;\n");
    });
    expect(planted()).toEqual([]);
  });

  it("reads no config of the hub user's, even one that includes a file of the worktree", async () => {
    const { place } = flight();
    const taskId = "33333333-3333-4333-8333-333333333333";
    const worktree = ensureWorktree(place, taskId);
    evilHooks("global");
    mkdirSync(join(hubHome, ".config", "git"), { recursive: true });
    const include = `[include]\n\tpath = ${join(worktree, "evil.cfg")}\n[includeIf "gitdir:/"]\n\tpath = ${join(worktree, "evil.cfg")}\n`;
    writeFileSync(join(hubHome, ".gitconfig"), include);
    writeFileSync(join(hubHome, ".config", "git", "config"), include);
    writeFileSync(join(hubHome, ".config", "git", "attributes"), "* filter=evil diff=evil merge=evil\n");
    await flyOn(place, taskId, worktree, () => {
      writeFileSync(join(worktree, "evil.cfg"), evilConfig("global"));
      writeFileSync(join(worktree, ".gitattributes"), "* filter=evil diff=evil merge=evil\n");
      writeFileSync(join(worktree, "src/a.js"), "export const a = 11;\n");
    });
    expect(planted()).toEqual([]);
  });
});

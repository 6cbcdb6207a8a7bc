// Red team (issues 34 and 41): a workpiece's test, as a compromised dependency would write it, probes everything
// it could reach from run_tests. Each reach is a probe whose verdict the test reads from the run's output; the
// test fails if any reach works. Quorum's password file, the app's environment, the host's loopback, a write
// outside the worktree, a commit, /etc/shadow, a root-only file, the host's uid, the folders outside the
// allowlist, and git's files in the worktree, which a later host-side git would read.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runTestsTool } from "../../agents/tools/run-tests";
import { sandboxAvailability } from "../../agents/tools/sandbox";
import { createToolbox } from "../../agents/tools/toolbox";
import { quorumHomePath } from "../../domain/config";
import { cloneAt, linkedWorktreeAt } from "../../domain/host-git";

const git = (cwd: string, args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

/** A repository and a linked worktree of it under Quorum's home, as a flight's task gets one. */
function flightWorktree(): { repo: string; worktree: string } {
  const repo = path.join(mkdtempSync(path.join(quorumHomePath(), "flight-")), "repo");
  mkdirSync(repo);
  writeFileSync(path.join(repo, "package.json"), JSON.stringify({ type: "module" }));
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "-m", "start"]);
  const worktree = path.join(`${repo}.worktrees`, "task");
  git(repo, ["worktree", "add", "-q", "-b", "task", worktree]);
  return { repo, worktree };
}

/** Runs `command` in the worktree through run_tests, as a coder's call would. */
async function runTests(worktree: string, repo: string, command: string[]) {
  const toolbox = createToolbox([runTestsTool({ command })], { root: worktree, git: linkedWorktreeAt(repo, worktree) ?? cloneAt(repo) });
  const prepared = toolbox.prepare({ id: "c1", name: "run_tests", arguments: {} }, { turn: 1, index: 0 });
  if (!prepared.ok) throw new Error("run_tests was refused");
  return toolbox.execute(prepared.prepared, { runId: "run_t", agentId: "a", turn: 1, index: 0, attempt: 1 });
}

/** The probes' verdicts, which the suite prints as one JSON line. */
function reachOf(observation: unknown): Record<string, string> {
  const output = (observation as { result?: { output?: string } }).result?.output ?? "";
  const line = /REACH (\{.*\})/.exec(output)?.[1];
  if (!line) throw new Error(`the probe printed no verdicts:\n${output}`);
  return JSON.parse(line) as Record<string, string>;
}

const PROBE = `import { test } from "node:test";
import { readFileSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { connect } from "node:net";
const reach = {};
const attempt = (name, fn) => { try { reach[name] = "reached: " + String(fn()).slice(0, 80); } catch (e) { reach[name] = "refused: " + (e.code ?? e.message.split("\\n")[0]); } };
test("probes", async () => {
  attempt("passwords", () => readFileSync(HOME + "/pg-passwords.json", "utf8"));
  attempt("environ", () => readFileSync("/proc/" + PARENT + "/environ", "utf8"));
  attempt("outside", () => writeFileSync("/var/tmp/planted-by-a-test.txt", "x"));
  attempt("repository", () => writeFileSync(REPO + "/planted.txt", "x"));
  attempt("commit", () => execFileSync("git", ["-c", "user.name=a", "-c", "user.email=a@a", "commit", "--allow-empty", "-q", "-m", "sneaked in"], { stdio: "pipe" }));
  attempt("gitRedirect", () => writeFileSync(".git", "gitdir: /tmp/evil"));
  attempt("gitConfig", () => writeFileSync(GITDIR + "/config", "[core]\\n\\tfsmonitor = touch /tmp/owned\\n"));
  attempt("shadow", () => readFileSync("/etc/shadow", "utf8"));
  attempt("rootOnly", () => readFileSync(GITDIR + "/root-only", "utf8"));
  attempt("inside", () => { writeFileSync("made-inside.txt", "ok"); return existsSync("made-inside.txt"); });
  attempt("gitStatus", () => execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim());
  for (const dir of ["/root", "/home", "/var", "/srv", "/mnt", "/run", "/boot", HOME, OTHER]) attempt("sees " + dir, () => readdirSync(dir).join(","));
  attempt("sees /usr/bin", () => existsSync("/usr/bin/env"));
  reach.port = await new Promise((done) => {
    const socket = connect(PORT, "127.0.0.1");
    socket.on("connect", () => { socket.destroy(); done("reached"); });
    socket.on("error", (e) => done("refused: " + e.code));
  });
  reach.uid = String(process.getuid());
  // Who the process is outside: its uid through the user namespace's map (the host's own map when there is none).
  const map = readFileSync("/proc/self/uid_map", "utf8").trim().split("\\n").map((l) => l.trim().split(/\\s+/).map(Number));
  const uid = process.getuid();
  const row = map.find(([inside, , count]) => uid >= inside && uid < inside + count);
  reach.hostUid = row ? String(row[1] + uid - row[0]) : "unmapped";
  reach.env = Object.keys(process.env).sort().join(",");
  console.log("REACH " + JSON.stringify(reach));
});
`;

describe("the sandbox", () => {
  it("lets the suite run in its worktree, and refuses every other reach", async () => {
    expect(sandboxAvailability()).toEqual({ available: true });
    const { repo, worktree } = flightWorktree();
    const other = flightWorktree();
    writeFileSync(path.join(quorumHomePath(), "pg-passwords.json"), JSON.stringify({ owner: "planted-owner-password" }));
    const gitDir = path.join(repo, ".git");
    writeFileSync(path.join(gitDir, "root-only"), "a secret only the hub's user may read");
    chmodSync(path.join(gitDir, "root-only"), 0o600);
    const listener = createServer((socket) => socket.end("hello")).listen(0, "127.0.0.1");
    await new Promise((resolve) => listener.once("listening", resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      const probe = PROBE.replaceAll("HOME", JSON.stringify(quorumHomePath()))
        .replace("PARENT", String(process.pid))
        .replace("REPO", JSON.stringify(repo))
        .replaceAll("GITDIR", JSON.stringify(gitDir))
        .replace("OTHER", JSON.stringify(other.repo))
        .replace("PORT", String(port));
      mkdirSync(path.join(worktree, "test"), { recursive: true });
      writeFileSync(path.join(worktree, "test", "probe.test.js"), probe);
      const observation = await runTests(worktree, repo, ["node", "--test", "test/probe.test.js"]);
      expect(observation).toMatchObject({ is_error: false, result: { passed: true } });
      const reach = reachOf(observation);
      expect(reach.passwords).toMatch(/^refused: ENOENT/);
      expect(reach.environ).toMatch(/^refused: ENOENT/);
      expect(reach.outside).toMatch(/^refused: (EROFS|ENOENT)/);
      expect(reach.repository).toMatch(/^refused/);
      expect(reach.commit).toMatch(/^refused/);
      expect(reach.gitRedirect).toMatch(/^refused: EROFS/);
      expect(reach.gitConfig).toMatch(/^refused: EROFS/);
      expect(reach.shadow).toMatch(/^refused: ENOENT/);
      expect(reach.rootOnly).toMatch(/^refused: EACCES/);
      for (const dir of ["/root", "/home", "/var", "/srv", "/mnt", "/run", "/boot", other.repo]) expect(reach[`sees ${dir}`], dir).toMatch(/^refused: ENOENT/);
      // Of Quorum's home, only the way down to this flight: no password file, no other flight.
      expect(reach[`sees ${quorumHomePath()}`]).toBe(`reached: ${path.basename(path.dirname(repo))}`);
      expect(reach["sees /usr/bin"]).toBe("reached: true");
      expect(reach.port).toMatch(/^refused: ECONNREFUSED/);
      expect(reach.inside).toBe("reached: true");
      // The suite may ask git about its repository: it sees the files it just wrote.
      expect(reach.gitStatus).toMatch(/^reached: .*made-inside\.txt/s);
      expect(reach.uid).toBe("65534");
      expect(reach.hostUid).not.toBe("0");
      expect(reach.env.split(",")).not.toContain("DATABASE_URL");
      expect(reach.env).not.toMatch(/QUORUM_/);
      // Nothing reached the repository or the worktree: no planted file, no commit, and what the test wrote is gone.
      expect(git(repo, ["log", "--format=%s", "task"]).trim()).toBe("start");
      expect(() => readFileSync(path.join(repo, "planted.txt"))).toThrow();
      expect(existsSync(path.join(worktree, "made-inside.txt"))).toBe(false);
      expect(readFileSync(path.join(worktree, ".git"), "utf8")).toMatch(/^gitdir: .*\.git\/worktrees\/task/);
      expect(readdirSync(gitDir)).not.toContain("owned");
    } finally {
      listener.close();
    }
  });

  it("runs each command on a fresh copy: what one run wrote, the next does not see", async () => {
    const { repo, worktree } = flightWorktree();
    const first = await runTests(worktree, repo, ["sh", "-c", "echo left-behind > note.txt; mkdir -p build && echo x > build/out; cat note.txt"]);
    expect(first).toMatchObject({ is_error: false, result: { passed: true, output: expect.stringContaining("left-behind") } });
    const second = await runTests(worktree, repo, ["sh", "-c", "ls; test ! -e note.txt && test ! -e build"]);
    expect(second).toMatchObject({ is_error: false, result: { passed: true } });
    expect(readdirSync(worktree).sort()).toEqual([".git", "package.json"]);
  });

  it("copies a worktree only the hub's user may read, and a test still runs in it", async () => {
    const { repo, worktree } = flightWorktree();
    writeFileSync(path.join(worktree, "private.txt"), "hub only");
    chmodSync(path.join(worktree, "private.txt"), 0o600);
    chmodSync(worktree, 0o700);
    const ran = await runTests(worktree, repo, ["sh", "-c", "cat private.txt && touch new-file"]);
    expect(ran).toMatchObject({ is_error: false, result: { passed: true, output: expect.stringContaining("hub only") } });
  });
});

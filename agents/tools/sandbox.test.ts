// Agent-written code runs in the sandbox: a test committed to a flight's worktree probes everything the
// findings of issue 34 reached — Quorum's password file, the app's environment, a port on the host's
// loopback, a write outside the worktree, a commit — and every reach is refused while the suite itself runs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { quorumHomePath } from "../../server/config";
import { runTestsTool } from "./run-tests";
import { MAX_PROCESSES, processLimitAvailable } from "./process-limit";
import { sandboxAvailability } from "./sandbox";
import { createToolbox } from "./toolbox";

const git = (cwd: string, args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

/** A repository and a linked worktree of it, as a flight's task gets one. */
function flightWorktree(): { repo: string; worktree: string } {
  const repo = mkdtempSync(path.join(tmpdir(), "quorum-sandbox-repo-"));
  writeFileSync(path.join(repo, "package.json"), JSON.stringify({ type: "module" }));
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "-m", "start"]);
  const worktree = path.join(mkdtempSync(path.join(quorumHomePath(), "wt-")), "task");
  git(repo, ["worktree", "add", "-q", "-b", "task", worktree]);
  return { repo, worktree };
}

const PROBE = `import { test } from "node:test";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { connect } from "node:net";
const reach = {};
const attempt = (name, fn) => { try { reach[name] = "reached: " + String(fn()).slice(0, 80); } catch (e) { reach[name] = "refused: " + (e.code ?? e.message.split("\\n")[0]); } };
test("probes", async () => {
  attempt("passwords", () => readFileSync(process.env.PROBE_HOME ?? ${JSON.stringify("HOME_PLACEHOLDER")} + "/pg-passwords.json", "utf8"));
  attempt("environ", () => readFileSync("/proc/" + PARENT + "/environ", "utf8"));
  attempt("outside", () => writeFileSync("/var/tmp/planted-by-a-test.txt", "x"));
  attempt("repository", () => writeFileSync(REPO + "/planted.txt", "x"));
  attempt("commit", () => execFileSync("git", ["-c", "user.name=a", "-c", "user.email=a@a", "commit", "--allow-empty", "-q", "-m", "sneaked in"], { stdio: "pipe" }));
  attempt("inside", () => { writeFileSync("made-inside.txt", "ok"); return existsSync("made-inside.txt"); });
  reach.port = await new Promise((done) => {
    const socket = connect(PORT, "127.0.0.1");
    socket.on("connect", () => { socket.destroy(); done("reached"); });
    socket.on("error", (e) => done("refused: " + e.code));
  });
  reach.uid = String(process.getuid());
  reach.env = Object.keys(process.env).sort().join(",");
  writeFileSync("reach.json", JSON.stringify(reach));
});
`;

describe("the sandbox", () => {
  it("lets the suite run and write its worktree, and refuses every other reach", async () => {
    expect(sandboxAvailability()).toEqual({ available: true });
    const { repo, worktree } = flightWorktree();
    writeFileSync(path.join(quorumHomePath(), "pg-passwords.json"), JSON.stringify({ owner: "planted-owner-password" }));
    const listener = createServer((socket) => socket.end("hello")).listen(0, "127.0.0.1");
    await new Promise((resolve) => listener.once("listening", resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      const probe = PROBE.replace("HOME_PLACEHOLDER", quorumHomePath()).replace("PARENT", String(process.pid)).replace("REPO", JSON.stringify(repo)).replace("PORT", String(port));
      mkdirSync(path.join(worktree, "test"), { recursive: true });
      writeFileSync(path.join(worktree, "test", "probe.test.js"), probe);
      const toolbox = createToolbox([runTestsTool({ command: ["node", "--test", "test/probe.test.js"] })], { root: worktree });
      const prepared = toolbox.prepare({ id: "c1", name: "run_tests", arguments: {} }, { turn: 1, index: 0 });
      if (!prepared.ok) throw new Error("run_tests was refused");
      const ran = { observation: await toolbox.execute(prepared.prepared, { runId: "run_t", agentId: "a", turn: 1, index: 0, attempt: 1 }) };
      expect(ran.observation).toMatchObject({ is_error: false, result: { passed: true } });
      const reach = JSON.parse(readFileSync(path.join(worktree, "reach.json"), "utf8")) as Record<string, string>;
      expect(reach.passwords).toMatch(/^refused: ENOENT/);
      expect(reach.environ).toMatch(/^refused: ENOENT/);
      expect(reach.outside).toMatch(/^refused: EROFS/);
      // The user's repository under the host's /tmp is not there at all: a write lands in the sandbox's own tmpfs.
      expect(reach.commit).toMatch(/^refused/);
      expect(reach.port).toMatch(/^refused: ECONNREFUSED/);
      expect(reach.inside).toBe("reached: true");
      expect(reach.uid).toBe("65534");
      expect(reach.env.split(",")).not.toContain("DATABASE_URL");
      expect(reach.env).not.toMatch(/QUORUM_/);
      // Nothing reached the repository: no planted file, no commit on the task's branch.
      expect(git(repo, ["log", "--format=%s", "task"]).trim()).toBe("start");
      expect(() => readFileSync(path.join(repo, "planted.txt"))).toThrow();
    } finally {
      listener.close();
    }
  });

  it("stops a fork bomb at its process limit, and frees the limit's group once the command is over", async () => {
    // A group left behind by a process that is gone is swept when the next group is made.
    const orphan = "/sys/fs/cgroup/pids/quorum-2147483646-1";
    if (existsSync("/sys/fs/cgroup/pids")) mkdirSync(orphan);
    expect(processLimitAvailable()).toBe(true);
    const { worktree } = flightWorktree();
    // Far more sleepers than the limit allows: the shell cannot fork past it and says so.
    const bomb = `n=0; while [ $n -lt ${MAX_PROCESSES * 3} ]; do sleep 30 & n=$((n+1)); done; echo "started $n"`;
    const toolbox = createToolbox([runTestsTool({ command: ["sh", "-c", bomb] })], { root: worktree });
    const prepared = toolbox.prepare({ id: "c1", name: "run_tests", arguments: {} }, { turn: 1, index: 0 });
    if (!prepared.ok) throw new Error("run_tests was refused");
    const observation = await toolbox.execute(prepared.prepared, { runId: "run_b", agentId: "a", turn: 1, index: 0, attempt: 1 });
    expect(observation).toMatchObject({ is_error: false, result: { passed: false } });
    expect(JSON.stringify(observation)).toMatch(/fork/i);
    expect(JSON.stringify(observation)).not.toContain(`started ${MAX_PROCESSES * 3}`);
    // Every group this process made is gone once its command is over (this one's and the earlier test's).
    await expect.poll(quorumGroups, { timeout: 5_000 }).toEqual([]);
    expect(existsSync(orphan)).toBe(false);
  });
});

/** The pids cgroups this process made that still exist. */
function quorumGroups(): string[] {
  const base = existsSync("/sys/fs/cgroup/pids") ? "/sys/fs/cgroup/pids" : "/sys/fs/cgroup";
  return readdirSync(base).filter((name) => name.startsWith(`quorum-${process.pid}-`));
}

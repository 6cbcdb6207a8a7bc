// Red team (issue 41): a workpiece's test that tries to take the machine down — fill its memory, its disk, its
// /dev/shm, fork without end, or leave processes running after it returns. Each is stopped at its limit, said
// plainly in the run's result, and leaves nothing behind; each test fails if the attack gets through.
import { vi } from "vitest";

// A small limit, so that reaching it costs the machine little: the tmpfs sizes follow it (worktree 256 MiB,
// /tmp 128 MiB, /dev/shm 32 MiB).
vi.stubEnv("QUORUM_SANDBOX_MEMORY_MB", "512");

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commandLimitsAvailable, MAX_PROCESSES } from "../../agents/tools/command-limits";
import { runTestsTool } from "../../agents/tools/run-tests";
import { createToolbox } from "../../agents/tools/toolbox";
import { quorumHomePath } from "../../domain/config";

function worktree(): string {
  const dir = path.join(mkdtempSync(path.join(quorumHomePath(), "limits-")), "task");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "README.md"), "a workpiece\n");
  return dir;
}

async function run(root: string, script: string) {
  const toolbox = createToolbox([runTestsTool({ command: ["sh", "-c", script], timeoutMs: 60_000 })], { root });
  const prepared = toolbox.prepare({ id: "c1", name: "run_tests", arguments: {} }, { turn: 1, index: 0 });
  if (!prepared.ok) throw new Error("run_tests was refused");
  return toolbox.execute(prepared.prepared, { runId: "run_l", agentId: "a", turn: 1, index: 0, attempt: 1 });
}

const output = (observation: unknown) => (observation as { result?: { output?: string } }).result?.output ?? JSON.stringify(observation);

/** The cgroups this process made that still exist, in every controller. */
function quorumGroups(): string[] {
  return ["/sys/fs/cgroup/pids", "/sys/fs/cgroup/memory", "/sys/fs/cgroup"]
    .filter((base) => existsSync(path.join(base, "cgroup.procs")))
    .flatMap((base) => readdirSync(base).filter((name) => name.startsWith(`quorum-${process.pid}-`)));
}

describe("the sandbox's limits", () => {
  it("has a process and a memory limit on this machine", () => {
    expect(commandLimitsAvailable()).toEqual({ processes: true, memory: true });
  });

  it("stops a test that eats memory at the limit, and says so", async () => {
    const ran = await run(worktree(), `node -e "const kept = []; for (;;) kept.push(Buffer.alloc(16 << 20, 1))"`);
    expect(ran).toMatchObject({ is_error: false, result: { passed: false, outOfMemory: true } });
    expect(output(ran)).toMatch(/ran out of memory: the sandbox allows 512 MiB/);
  });

  it("stops a test that fills /tmp with files (tmpfs is memory) at the limit", async () => {
    const ran = await run(worktree(), "dd if=/dev/zero of=/tmp/fill bs=1M count=400 2>&1; echo dd-exit=$?");
    expect(output(ran)).toMatch(/No space left on device/);
    expect(output(ran)).not.toMatch(/400\+0 records out/);
  });

  it("bounds the worktree's disk and /dev/shm, and the host's worktree is never written", async () => {
    const root = worktree();
    const before = execFileSync("du", ["-sb", root], { encoding: "utf8" }).split("\t")[0];
    const ran = await run(root, "dd if=/dev/zero of=big bs=1M count=300 2>&1; dd if=/dev/zero of=/dev/shm/big bs=1M count=64 2>&1; ls -la big");
    expect(output(ran).match(/No space left on device/g)).toHaveLength(2);
    expect(execFileSync("du", ["-sb", root], { encoding: "utf8" }).split("\t")[0]).toBe(before);
    expect(existsSync(path.join(root, "big"))).toBe(false);
  });

  it("stops a fork bomb at its process limit, and frees its groups once the command is over", async () => {
    // A group left behind by a process that is gone is swept when the next group is made.
    const orphan = "/sys/fs/cgroup/pids/quorum-2147483646-1";
    if (existsSync("/sys/fs/cgroup/pids") && !existsSync(orphan)) mkdirSync(orphan);
    const bomb = `n=0; while [ $n -lt ${MAX_PROCESSES * 3} ]; do sleep 30 & n=$((n+1)); done; echo "started $n"`;
    const ran = await run(worktree(), bomb);
    expect(ran).toMatchObject({ is_error: false, result: { passed: false } });
    expect(output(ran)).toMatch(/fork/i);
    expect(output(ran)).not.toContain(`started ${MAX_PROCESSES * 3}`);
    await expect.poll(quorumGroups, { timeout: 5_000 }).toEqual([]);
    expect(existsSync(orphan)).toBe(false);
  });

  it("ends every process a test left running in the background when the command returns", async () => {
    const marker = `quorum-left-behind-${process.pid}-${Date.now()}`;
    const ran = await run(
      worktree(),
      `setsid sh -c 'while :; do sleep 1; done # ${marker}' </dev/null >/dev/null 2>&1 & nohup sh -c 'while :; do sleep 1; done # ${marker}' >/dev/null 2>&1 & sleep 0.2; pgrep -fc '${marker}'`,
    );
    // Inside, while the command ran, both were running.
    expect(ran).toMatchObject({ is_error: false, result: { passed: true, output: expect.stringMatching(/^[2-9]\s*$/m) } });
    const still = () => {
      try {
        return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    await expect.poll(still, { timeout: 5_000 }).toBe("");
  });
});

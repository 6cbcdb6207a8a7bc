// The pre-commit guard in a temporary git repository: a reserved path (renames included) is refused, a free one passes.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { makeAgent } from "../test/helpers";
const checkRoute = apiHandler("POST", "/api/reservations/check");
import { systemClock } from "../domain/clock";
import { reservePaths } from "../domain/reservations/reserve";
import { serve } from "../test/mcp/client";
import { installHook } from "./hook";
import { apiHandler } from "../test/api";

let hub: Awaited<ReturnType<typeof serve>>;
const repos: string[] = [];

beforeAll(async () => {
  hub = await serve([{ path: "/api/reservations/check", handlers: { POST: checkRoute } }]);
});
afterAll(async () => {
  await hub.close();
  for (const repo of repos) rmSync(repo, { recursive: true, force: true });
});

function tempRepo(): string {
  const repo = mkdtempSync(join(tmpdir(), "quorum-hook-"));
  repos.push(repo);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo });
  git("init", "-q");
  git("config", "user.email", "bo@example.com");
  git("config", "user.name", "bo");
  // The guard must work whatever module type the repository's package.json declares.
  writeFileSync(join(repo, "package.json"), JSON.stringify({ type: "module" }));
  return repo;
}

function write(repo: string, path: string, text = `${path}\n`) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

/** git commit, asynchronously: the hook calls back into this process's HTTP hub, which must keep serving. */
function gitCommit(repo: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("git", ["commit", "-q", "-m", "change"], { cwd: repo, env });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

function commit(repo: string, key: string, ...stage: string[][]) {
  for (const args of stage) execFileSync("git", args, { cwd: repo });
  // The hook finds the hub through the repository's git config, as on an agent's machine.
  const { QUORUM_URL: _ignored, ...env } = process.env;
  return gitCommit(repo, { ...env, QUORUM_KEY: key });
}

describe("quorum hook install", () => {
  it("refuses a commit touching another agent's reserved path, naming the holder, and allows a free one", async () => {
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const scope = `hook-${ada.name}`;
    const repo = tempRepo();
    const installed = installHook({ repo, url: hub.url, scope });
    expect(readFileSync(installed.path, "utf8")).toContain("quorum pre-commit guard");
    await reservePaths(getDb(), ada, { patterns: ["src/lib/**"], reason: "tokenizer rewrite", scope }, systemClock);

    write(repo, "package.json", "{}\n");
    write(repo, "docs/free.md");
    const free = await commit(repo, bo.key, ["add", "docs/free.md", "package.json"]);
    expect(free.status, free.stderr).toBe(0);

    write(repo, "src/lib/parse.ts");
    const refused = await commit(repo, bo.key, ["add", "src/lib/parse.ts"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("src/lib/parse.ts");
    expect(refused.stderr).toContain(`reserved by ${ada.name}`);
    expect(refused.stderr).toContain("tokenizer rewrite");
    // The holder itself commits freely.
    const own = await commit(repo, ada.key);
    expect(own.status, own.stderr).toBe(0);
  });

  it("counts both ends of a rename, and refuses without a key or a reachable hub", async () => {
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const scope = `rename-${ada.name}`;
    const repo = tempRepo();
    installHook({ repo, url: hub.url, scope });
    write(repo, "src/app/main.ts", "export const main = () => 1;\n".repeat(5));
    expect((await commit(repo, bo.key, ["add", "."])).status).toBe(0);
    await reservePaths(getDb(), ada, { patterns: ["src/app/main.ts"], reason: "entry point refactor", scope }, systemClock);
    const renamed = await commit(repo, bo.key, ["mv", "src/app/main.ts", "src/main.ts"]);
    expect(renamed.status).not.toBe(0);
    expect(renamed.stderr).toContain(`src/app/main.ts  reserved by ${ada.name}`);

    const noKey = await gitCommit(repo, { ...process.env, QUORUM_KEY: "" });
    expect(noKey.status).not.toBe(0);
    expect(noKey.stderr).toContain("no Quorum key");
    const badKey = await commit(repo, "qk_forged");
    expect(badKey.status).not.toBe(0);
    expect(badKey.stderr).toContain("401");
    execFileSync("git", ["config", "quorum.url", "http://127.0.0.1:9"], { cwd: repo });
    const down = await commit(repo, bo.key);
    expect(down.status).not.toBe(0);
    expect(down.stderr).toContain("cannot reach Quorum");
  });

  it("never overwrites someone else's hook unless forced", () => {
    const repo = tempRepo();
    write(repo, ".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
    expect(() => installHook({ repo, url: hub.url })).toThrow(/not Quorum's/);
    expect(installHook({ repo, url: hub.url, force: true }).scope).toBe("default");
  });
});

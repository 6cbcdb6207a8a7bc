// Ctrl-C stops Quorum as a user runs it: `quorum start` with its embedded Postgres, the built-in team
// working and a browser's live stream open; SIGINT goes to its process group, as a terminal sends it.
// Within 15 s every process it started is gone — worker first, then the web server, then Postgres —
// the ports are free, the stream has ended, and Postgres shut down cleanly: its control file says so
// and its next start replays nothing. `quorum worker` run on its own stops on Ctrl-C too.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { descendants, isRunning, killAll } from "../bin/processes";
import { freePort, startEmbeddedPostgres } from "../db/embedded";
import { newHome, quorumBin, root as repo, serverEnv, startQuorum } from "./server";

/** `state` in pg_control (after system identifier, version and catalog version): DB_SHUTDOWNED is 1. */
function controlState(dataDir: string): number {
  return readFileSync(join(dataDir, "global", "pg_control")).readUInt32LE(16);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once("error", () => done(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => done(true)));
  });
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
}

test("Ctrl-C stops the worker, then the web server (its streams ended), then Postgres, cleanly, within 15 s", async () => {
  test.setTimeout(240_000);
  const home = newHome();
  const port = await freePort();
  const server = await startQuorum(home, port);
  const root = server.process.pid!;
  const seen = new Set<number>([root]);
  try {
    expect(await until(() => server.output().includes("Team worker hosting"), 60_000), server.output()).toBe(true);

    // A signed-in browser's live stream, open while the server stops.
    const signIn = await fetch(server.signInUrl, { redirect: "manual" });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const stream = await fetch(`${server.baseURL}/api/stream`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("event: ready");
    let streamEnded = false;
    void (async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        // cut: ended all the same
      }
      streamEnded = true;
    })();

    // Everything it runs, whatever process group each one is in.
    for (const pid of descendants(root)) seen.add(pid);
    const roles = {
      worker: [...seen].find((pid) => /quorum\.ts worker/.test(commandOf(pid))),
      web: [...seen].find((pid) => /quorum-web|next-server|next start/.test(commandOf(pid))),
      postgres: [...seen].find((pid) => /bin\/postgres -D/.test(commandOf(pid))),
    };
    expect(roles.worker && roles.web && roles.postgres, [...seen].map(commandOf).join("\n")).toBeTruthy();
    // The terminal's Ctrl-C reaches the supervisor itself. Under tsx's CLI it ran in a child that tsx
    // SIGKILLs when a signal is not acknowledged within ~60 ms: a busy supervisor died, Postgres ran on.
    const supervisors = [...seen].filter((pid) => /quorum\.ts start/.test(commandOf(pid)));
    expect(supervisors, supervisors.map(commandOf).join("\n")).toEqual([root]);
    const databasePort = (JSON.parse(readFileSync(join(home, "runtime.json"), "utf8")) as { port: number }).port;

    const sent = Date.now();
    process.kill(-root, "SIGINT");
    const stoppedAt: Record<string, number> = {};
    const allGone = await until(() => {
      for (const [role, pid] of Object.entries(roles)) if (!(role in stoppedAt) && !isRunning(pid!)) stoppedAt[role] = Date.now() - sent;
      return [...seen].every((pid) => !isRunning(pid));
    }, 15_000);
    const left = [...seen].filter(isRunning).map((pid) => `${pid} ${commandOf(pid)}`);
    expect(allGone, `still running 15 s after SIGINT:\n${left.join("\n")}\n${server.output()}`).toBe(true);
    expect(stoppedAt.worker).toBeLessThanOrEqual(stoppedAt.web);
    expect(stoppedAt.web).toBeLessThanOrEqual(stoppedAt.postgres);
    expect(await portIsFree(port)).toBe(true);
    expect(await portIsFree(databasePort)).toBe(true);
    expect(await until(() => streamEnded, 2_000)).toBe(true);
    expect(server.output()).toContain("Team worker stopped.");

    expect(controlState(join(home, "pg"))).toBe(1);
    const log: string[] = [];
    const again = await startEmbeddedPostgres(home, (line) => log.push(line));
    await again.stop();
    expect(log.join("")).not.toMatch(/not properly shut down|automatic recovery|redo starts/);
  } finally {
    killAll([...seen, ...descendants(root)]);
    rmSync(home, { recursive: true, force: true });
  }
});

test("Ctrl-C stops a standalone `quorum worker` at its next step boundary", async () => {
  test.setTimeout(120_000);
  const home = newHome();
  // A database the worker did not start (as with DATABASE_URL): nothing but the worker's own stop can end it.
  const database = await startEmbeddedPostgres(home);
  await database.migrate();
  const env = { ...serverEnv(home, await freePort()), DATABASE_URL: database.ownerUrl };
  const worker = spawn(quorumBin, ["worker"], { cwd: repo, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  worker.stdout.on("data", (chunk) => (output += chunk));
  worker.stderr.on("data", (chunk) => (output += chunk));
  const seen = new Set<number>([worker.pid!]);
  try {
    expect(await until(() => output.includes("Team worker hosting"), 60_000), output).toBe(true);
    for (const pid of descendants(worker.pid!)) seen.add(pid);
    process.kill(-worker.pid!, "SIGINT");
    const allGone = await until(() => [...seen].every((pid) => !isRunning(pid)), 15_000);
    expect(allGone, `still running 15 s after SIGINT:\n${[...seen].filter(isRunning).map(commandOf).join("\n")}\n${output}`).toBe(true);
    expect(output).toContain("Team worker stopped.");
  } finally {
    killAll([...seen, ...descendants(worker.pid!)]);
    await database.stop();
    rmSync(home, { recursive: true, force: true });
  }
});

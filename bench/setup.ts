// A flight's setup, built once and shared (issue 42): the first setup of a real library (clsx, its devDependencies
// from the npm registry through the hub's proxy) is the anchor; a second worktree of the same flight made ready
// to run its tests, and a second flight on the same lockfile, are each measured against it. Each should cost
// at most a tenth of it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { flightEnvironment, prepareEnvironment } from "../agents/team/environment";
import { ensureTeam } from "../agents/team/team";
import { ensureWorktree } from "../agents/team/workspace";
import { sandboxed } from "../agents/tools/sandbox";
import type { Connection } from "../db/client";
import { systemClock } from "../domain/clock";
import { launchFlight } from "../domain/flights/launch";
import { placeOf } from "../domain/flights/place";
import { cloneAt } from "../domain/host-git";
import type { Principal } from "../domain/principal";
import { clsxRepo } from "../test/fixtures/repos";
import { median, progress, record, REPS } from "./lib";

/** A sandboxed command in `worktree` that finds the library's test runner: the proof its dependencies are there. */
function runnerFound(worktree: string, environment: string | undefined, repo: string): boolean {
  const command = sandboxed(["node", "-e", "require.resolve('uvu')"], worktree, { git: cloneAt(repo), environment });
  try {
    return spawnSync(command.program, command.args, { env: command.env, stdio: "ignore" }).status === 0;
  } finally {
    command.release();
  }
}

export async function benchSetup(c: Connection, human: Principal): Promise<void> {
  progress("setup: a real library's dependencies, built once, shared by worktrees and flights");
  const team = await ensureTeam(c.db, systemClock);
  const firsts: number[] = [];
  const worktrees: number[] = [];
  const seconds: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    // Each repetition its own home: the first setup is cold every time.
    const home = mkdtempSync(join(tmpdir(), "quorum-bench-setup-"));
    try {
      const fixture = clsxRepo();
      const launch = () => launchFlight(c.db, human, { goal: "bench", repo: fixture.repo, mode: "scripted", home }, systemClock);
      const { flight } = await launch();
      let started = performance.now();
      const first = await prepareEnvironment(c.db, team.orchestrator.principal, flight, systemClock);
      firsts.push(performance.now() - started);
      if (!first.ok) throw new Error(`the bench's setup failed: ${first.reason}`);

      const place = placeOf(flight);
      started = performance.now();
      const worktree = ensureWorktree(place, "00000000-0000-4000-8000-00000000b0b0");
      const found = runnerFound(worktree, await flightEnvironment(c.db, place), place.repo);
      worktrees.push(performance.now() - started);
      if (!found) throw new Error("a second worktree did not see the flight's environment");

      const { flight: again } = await launch();
      started = performance.now();
      const reused = await prepareEnvironment(c.db, team.orchestrator.principal, again, systemClock);
      seconds.push(performance.now() - started);
      if (!reused.ok) throw new Error("the second flight's setup failed");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  const anchor = { anchor: "first setup (cold: npm install from the registry)", anchorValue: median(firsts), unit: "ms", better: "lower" as const, section: "setup" };
  record({ ...anchor, figure: "setup: a second worktree ready (worktree + its runner found, sandboxed)", value: median(worktrees), note: "≤ 0.10× wanted" });
  record({ ...anchor, figure: "setup: a second flight on the same lockfile", value: median(seconds), note: "≤ 0.10× wanted" });
}

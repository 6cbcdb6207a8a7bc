// One Quorum for the whole browser suite, built fresh and started the way a user starts it.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newHome, root, startQuorum, stopQuorum } from "./server";

export default async function globalSetup() {
  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: process.env.E2E_DIST_DIR ?? ".next" },
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("next build failed");
  }
  // Every hub's home, the browsers' profiles and what the specs make in the temporary folder land in one folder
  // for the run, removed at its end (the workers and the processes they start inherit TMPDIR).
  const outerTmp = process.env.TMPDIR;
  const run = mkdtempSync(join(tmpdir(), "quorum-e2e-run-"));
  chmodSync(run, 0o755); // the hubs' embedded Postgres runs as the postgres user
  process.env.TMPDIR = run;
  const server = await startQuorum(newHome());
  process.env.QUORUM_E2E_BASE_URL = server.baseURL;
  process.env.QUORUM_E2E_HOME = server.home;
  process.env.QUORUM_E2E_PORT = String(server.port);
  process.env.QUORUM_E2E_SIGNIN_URL = server.signInUrl;
  return async () => {
    await stopQuorum(server);
    rmSync(run, { recursive: true, force: true });
    if (outerTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outerTmp;
  };
}

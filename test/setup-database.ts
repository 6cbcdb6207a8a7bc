// Before each test file: a fresh database cloned from the migrated template, as DATABASE_URL, and a QUORUM_HOME.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { getConnection } from "../db/client";
import { forgetSettings } from "../domain/config";

const adminUrl = inject("adminUrl");
const templateName = inject("templateName");
const name = `quorum_t_${templateName.split("_").at(-1)}_${randomBytes(5).toString("hex")}`;

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
for (let attempt = 0; ; attempt++) {
  try {
    await admin.unsafe(`create database ${name} template ${templateName}`);
    break;
  } catch (error) {
    // Two clones of one template at the same instant can collide; try again shortly.
    if (attempt >= 20) throw error;
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
  }
}
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${name}`;
process.env.DATABASE_URL = url.toString();
// What this file and the processes it starts make in the temporary folder (scratch repositories, clones, homes)
// lands in a folder of its own, removed with it: otherwise /tmp kept hundreds of folders after a few runs.
const outerTmp = process.env.TMPDIR;
const scratch = mkdtempSync(join(tmpdir(), "quorum-test-file-"));
chmodSync(scratch, 0o755); // an embedded Postgres started here runs as the postgres user
// tsx keeps its compiled files in the temporary folder: the processes this file starts share the run's cache.
const tsxCacheName = `tsx-${process.geteuid?.() ?? 0}`;
mkdirSync(join(tmpdir(), tsxCacheName), { recursive: true });
symlinkSync(join(tmpdir(), tsxCacheName), join(scratch, tsxCacheName));
process.env.TMPDIR = scratch;
// Flights clone their repositories under QUORUM_HOME: a folder of this test file's own, not the checkout's .quorum.
const home = mkdtempSync(join(tmpdir(), "quorum-home-"));
process.env.QUORUM_HOME = home;
// A worker runs many files on one module graph (vitest.config.ts): what the file before read of its environment is forgotten.
forgetSettings();

afterAll(async () => {
  await getConnection().close();
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  if (outerTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outerTmp;
});

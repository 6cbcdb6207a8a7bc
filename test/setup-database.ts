// Before each test file: a fresh database cloned from the migrated template, as DATABASE_URL, and a QUORUM_HOME.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
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
// Flights clone their repositories under QUORUM_HOME: a folder of this test file's own, not the checkout's .quorum.
const home = mkdtempSync(join(tmpdir(), "quorum-home-"));
process.env.QUORUM_HOME = home;
// A worker runs many files on one module graph (vitest.config.ts): what the file before read of its environment is forgotten.
forgetSettings();

afterAll(async () => {
  await getConnection().close();
  rmSync(home, { recursive: true, force: true });
});

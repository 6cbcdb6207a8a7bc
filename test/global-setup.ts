// Once per test run: a Postgres (DATABASE_URL's server, or an embedded one) and a migrated template.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { withDatabase } from "../db/client";

declare module "vitest" {
  export interface ProvidedContext {
    adminUrl: string;
    templateName: string;
  }
}

export default async function setup(project: TestProject) {
  let stopEmbedded: (() => Promise<void>) | undefined;
  let home: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    home = mkdtempSync(join(tmpdir(), "quorum-test-"));
    chmodSync(home, 0o755); // Postgres runs as the postgres user and must reach its folder
    const embedded = await startEmbeddedPostgres(home);
    serverUrl = embedded.ownerUrl; // the superuser: it creates the scratch databases
    stopEmbedded = embedded.stop;
  }
  const adminUrl = withDatabase(serverUrl, "postgres");
  const templateName = `quorum_tpl_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${templateName}`);
  await admin.unsafe(`create database ${templateName}`);
  await runMigrations(withDatabase(serverUrl, templateName));
  project.provide("adminUrl", adminUrl);
  project.provide("templateName", templateName);

  return async () => {
    const clones = await admin`select datname from pg_database where datname like ${`quorum_t_${process.pid}_%`}`;
    for (const { datname } of clones) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.unsafe(`drop database if exists ${templateName} with (force)`);
    await admin.end();
    await stopEmbedded?.();
    if (home) rmSync(home, { recursive: true, force: true });
  };
}

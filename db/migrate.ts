// Applies the committed drizzle-kit migrations; safe to run from several processes at once.
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import type postgres from "postgres";
import { connect } from "./client";
import { functionsUpToDate, installFunctions } from "./install-functions";

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Whether the last committed migration is already applied (drizzle applies every migration newer
 * than the newest one on record) and every function is its file's text (db/install-functions.ts). A
 * role that may not migrate — the embedded database's app role — can still run this check, so it
 * starts on a current schema without attempting DDL.
 */
async function upToDate(sql: postgres.Sql): Promise<boolean> {
  const newest = Math.max(...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  try {
    const [row] = await sql`select max(created_at) as applied from drizzle.__drizzle_migrations`;
    return row?.applied != null && Number(row.applied) >= newest && (await functionsUpToDate(sql));
  } catch {
    return false; // no migrations table yet, or not ours to read: migrate (and say why if that fails)
  }
}

export async function runMigrations(url: string): Promise<void> {
  const connection = connect(url, { max: 1 });
  try {
    if (await upToDate(connection.sql)) return;
    // Serialise concurrent starters; the lock is released when the session ends.
    await connection.sql`select pg_advisory_lock(8451001)`;
    const apply = async () => {
      await migrate(connection.db, { migrationsFolder });
      await installFunctions(connection.sql);
    };
    await apply().catch((error: unknown) => {
      const failure = error as { code?: string; cause?: { code?: string } };
      if ((failure.code ?? failure.cause?.code) !== "42501") throw error;
      throw new Error(`this database role may not apply Quorum's pending migrations: run them as the schema's owner (\`quorum start\` does): ${String(error)}`, {
        cause: error,
      });
    });
  } finally {
    await connection.close();
  }
}

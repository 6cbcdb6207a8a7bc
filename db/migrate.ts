// Applies the committed drizzle-kit migrations; safe to run from several processes at once.
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { connect } from "./client";

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

export async function runMigrations(url: string): Promise<void> {
  const connection = connect(url, { max: 1 });
  try {
    // Serialise concurrent starters; the lock is released when the session ends.
    await connection.sql`select pg_advisory_lock(8451001)`;
    await migrate(connection.db, { migrationsFolder });
  } finally {
    await connection.close();
  }
}

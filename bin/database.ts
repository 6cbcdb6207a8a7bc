// Finds the database a CLI command should use: DATABASE_URL, a running `quorum start`, or its own.
import { userInfo } from "node:os";
import { runningDatabaseUrl, startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { connect, type Connection } from "../db/client";

export interface Database {
  url: string;
  /** Set when this process started the embedded server and must stop it. */
  stop?: () => Promise<void>;
}

export async function openDatabase(log: (line: string) => void = () => {}): Promise<Database> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const running = await runningDatabaseUrl();
  if (running) return { url: running };
  const embedded = await startEmbeddedPostgres(undefined, log);
  return { url: embedded.url, stop: embedded.stop };
}

/** Runs `work` against a migrated database, cleaning up whatever this process started. */
export async function withConnection<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
  const database = await openDatabase();
  try {
    await runMigrations(database.url);
    const connection = connect(database.url, { max: 2 });
    try {
      return await work(connection);
    } finally {
      await connection.close();
    }
  } finally {
    await database.stop?.();
  }
}

export function appUrl(): string {
  return process.env.QUORUM_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

/** The local human `npm start` signs in: QUORUM_HUMAN, else the OS user name made into a handle. */
export function localHumanName(): string {
  const wanted = process.env.QUORUM_HUMAN ?? userInfo().username;
  const cleaned = wanted
    .replace(/[^A-Za-z0-9_.-]/g, "")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 40);
  return cleaned || "human";
}

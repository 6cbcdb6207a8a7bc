// Finds the database a CLI command should use: DATABASE_URL, a running `quorum start`, or its own.
import { userInfo } from "node:os";
import { runningDatabase, startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { connect, type Connection } from "../db/client";
import { databaseUrlSetting, localHumanSetting } from "../domain/config";

export interface Database {
  /** What the app, the worker and commands connect with (the embedded database's non-superuser role). */
  url: string;
  /** The schema's owner (the embedded superuser); absent with DATABASE_URL, whose one role is used for both. */
  ownerUrl?: string;
  /** Applies pending migrations (the embedded database's owner does, then grants the app's role). */
  migrate(): Promise<void>;
  /** Set when this process started the embedded server and must stop it. */
  stop?: () => Promise<void>;
  /** Set with `stop`: ends the embedded server at once. */
  kill?: () => void;
}

export async function openDatabase(log: (line: string) => void = () => {}): Promise<Database> {
  const given = databaseUrlSetting();
  if (given) return { url: given, migrate: () => runMigrations(given) };
  return (await runningDatabase()) ?? (await startEmbeddedPostgres(undefined, log));
}

/**
 * Runs `work` against a migrated database, cleaning up whatever this process started. `asOwner` connects as
 * the schema's owner, which alone may detach, attach and drop the journal's partitions (`quorum journal
 * archive` and `restore`); everything else runs as the app's role.
 */
export async function withConnection<T>(work: (connection: Connection) => Promise<T>, options: { asOwner?: boolean } = {}): Promise<T> {
  const database = await openDatabase();
  try {
    await database.migrate();
    const connection = connect(options.asOwner ? (database.ownerUrl ?? database.url) : database.url, { max: 2 });
    try {
      return await work(connection);
    } finally {
      await connection.close();
    }
  } finally {
    await database.stop?.();
  }
}

/** The local human `npm start` signs in: QUORUM_HUMAN, else the OS user name made into a handle. */
export function localHumanName(): string {
  const wanted = localHumanSetting() ?? userInfo().username;
  const cleaned = wanted
    .replace(/[^A-Za-z0-9_.-]/g, "")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 40);
  return cleaned || "human";
}

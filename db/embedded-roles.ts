// The embedded database's credentials and roles: the superuser that owns the schema, the app's role that
// owns nothing, their random passwords in a 0600 file, and the grants re-applied after every migration.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { runMigrations } from "./migrate";

export const SUPERUSER = "postgres";
/** The role the app, the team worker and CLI commands connect as: no superuser, owns nothing. */
export const APP_ROLE = "quorum_app";
/** What every data folder made before the app role existed used: refused once the folder is upgraded. */
const LEGACY_PASSWORD = "quorum";
export const DATABASE = "quorum";
import { PASSWORDS_FILE } from "./passwords-file";

export { PASSWORDS_FILE };
/** Held while migrating and granting, so concurrent starters take turns (db/migrate.ts takes it too). */
const MIGRATION_LOCK = 8451001;
export interface EmbeddedUrls {
  /** The app's role: what next-server, the worker and CLI commands connect with. */
  url: string;
  /** The superuser, which owns the schema: migrations, and test setups that create databases. */
  ownerUrl: string;
  /** Applies pending migrations as the owner, then grants the app's role what it may use. */
  migrate(): Promise<void>;
}

export type Passwords = Record<typeof SUPERUSER | typeof APP_ROLE, string>;

/** Writes a file only its owner can read, atomically (a crash leaves the old file or the new one). */
export function writePrivate(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
  renameSync(temporary, path);
}

const newPassword = () => randomBytes(24).toString("base64url");

/** The roles' passwords: made once, before the database is touched, so a crash can never lose one. */
export function loadPasswords(home: string): Passwords {
  const file = join(home, PASSWORDS_FILE);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<Passwords>;
    if (typeof stored[SUPERUSER] === "string" && typeof stored[APP_ROLE] === "string") return stored as Passwords;
  }
  const passwords: Passwords = { [SUPERUSER]: newPassword(), [APP_ROLE]: newPassword() };
  writePrivate(file, `${JSON.stringify(passwords, null, 2)}\n`);
  return passwords;
}

export function urlsOf(port: number, passwords: Passwords): EmbeddedUrls {
  const ownerUrl = `postgres://${SUPERUSER}:${passwords[SUPERUSER]}@127.0.0.1:${port}/${DATABASE}`;
  return { url: `postgres://${APP_ROLE}:${passwords[APP_ROLE]}@127.0.0.1:${port}/${DATABASE}`, ownerUrl, migrate: () => migrateAndGrant(ownerUrl) };
}

/**
 * Connects as the superuser with the stored password. A folder made before the passwords file existed
 * still has the fixed legacy password: it is rotated to the stored one here, once.
 */
export async function openAsSuperuser(port: number, passwords: Passwords, log: (line: string) => void): Promise<postgres.Sql> {
  const at = (password: string) => postgres(`postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  const refused = (error: unknown) => (error as { code?: string }).code === "28P01";
  const admin = at(passwords[SUPERUSER]);
  try {
    await admin`select 1`;
    return admin;
  } catch (error) {
    await admin.end();
    if (!refused(error)) throw error;
  }
  const legacy = at(LEGACY_PASSWORD);
  try {
    await legacy`select 1`;
  } catch (error) {
    await legacy.end();
    throw refused(error) ? new Error(`the superuser password in ${PASSWORDS_FILE} does not open this data folder, nor does the old fixed one`, { cause: error }) : error;
  }
  await legacy.unsafe(`alter role ${SUPERUSER} password '${passwords[SUPERUSER]}'`);
  log(`Rotated the embedded database's fixed superuser password to a random one (kept in ${PASSWORDS_FILE}).`);
  return legacy;
}

/** The database and the app's role, whose password always matches the file. */
export async function ensureDatabaseAndRole(admin: postgres.Sql, passwords: Passwords): Promise<void> {
  const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
  if (!exists) await admin.unsafe(`create database ${DATABASE}`);
  const [role] = await admin`select 1 from pg_roles where rolname = ${APP_ROLE}`;
  const attributes = "login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit";
  await admin.unsafe(`${role ? "alter" : "create"} role ${APP_ROLE} ${attributes} password '${passwords[APP_ROLE]}'`);
}

/**
 * What the app's role may do: read and write the tables the superuser owns, append to the journal
 * (never update, delete or truncate it), use the sequences. It owns nothing, so it can neither alter,
 * drop nor disable a table or its triggers, and it may create nothing. Re-applied after every migration
 * run; default privileges cover tables a later migration adds even if some path forgets to re-grant.
 */
const GRANTS = [
  "revoke create on schema public from public",
  `revoke create on database ${DATABASE} from public`,
  `grant connect, temporary on database ${DATABASE} to ${APP_ROLE}`,
  `grant usage on schema public to ${APP_ROLE}`,
  `grant select, insert, update, delete on all tables in schema public to ${APP_ROLE}`,
  `revoke update, delete, truncate on events from ${APP_ROLE}`,
  // The journal's partitions are reached through events alone (a grant on all tables reaches them too);
  // the app makes the coming months' through one SECURITY DEFINER function (db/functions/quorum_journal_partition.sql).
  `do $$ declare p regclass; begin
     for p in select i.inhrelid::regclass from pg_inherits i where i.inhparent = 'events'::regclass loop
       execute format('revoke all on %s from ${APP_ROLE}', p);
     end loop;
   end $$`,
  "revoke all on function quorum_journal_partition(date) from public",
  `grant execute on function quorum_journal_partition(date) to ${APP_ROLE}`,
  `grant usage, select on all sequences in schema public to ${APP_ROLE}`,
  `alter default privileges for role ${SUPERUSER} in schema public grant select, insert, update, delete on tables to ${APP_ROLE}`,
  `alter default privileges for role ${SUPERUSER} in schema public grant usage, select on sequences to ${APP_ROLE}`,
  // Lets a process on the app's role see that nothing is pending (db/migrate.ts) without migrating.
  `grant usage on schema drizzle to ${APP_ROLE}`,
  `grant select on drizzle.__drizzle_migrations to ${APP_ROLE}`,
];

async function migrateAndGrant(ownerUrl: string): Promise<void> {
  await runMigrations(ownerUrl);
  const owner = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  try {
    await owner.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      for (const statement of GRANTS) await tx.unsafe(statement);
    });
  } finally {
    await owner.end();
  }
}

// Installs the live text of Quorum's SQL functions from db/functions/<name>.sql, after the migrations.
//
// Migrations are history: a function written three times over the years has three texts there and no
// single current one. Each function's current text is its file; a migration only creates tables, indexes
// and triggers, and drops a function that is gone. `runMigrations` installs every file whose text is not
// the one installed, and each installed function carries its file's digest as its comment, so a start on
// a current database checks them with one read (db/functions.test.ts holds the installed text to the files).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";

const functionsFolder = fileURLToPath(new URL("./functions", import.meta.url));

export interface FunctionFile {
  /** The function's name, and its file's: db/functions/<name>.sql. */
  name: string;
  text: string;
  /** What the installed function's comment says once this text is installed. */
  digest: string;
}

export function readFunctionFiles(): FunctionFile[] {
  return readdirSync(functionsFolder)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const text = readFileSync(`${functionsFolder}/${file}`, "utf8");
      return { name: file.slice(0, -4), text, digest: `db/functions/${file} sha256:${createHash("sha256").update(text).digest("hex")}` };
    });
}

/** The digest each public function carries as its comment (null when it has none). */
async function installedDigests(sql: postgres.Sql): Promise<Map<string, string | null>> {
  const rows = await sql<{ name: string; digest: string | null }[]>`
    select p.proname as name, obj_description(p.oid, 'pg_proc') as digest
    from pg_proc p where p.pronamespace = 'public'::regnamespace`;
  return new Map(rows.map((row) => [row.name, row.digest]));
}

function stale(files: FunctionFile[], installed: Map<string, string | null>): FunctionFile[] {
  return files.filter((file) => installed.get(file.name) !== file.digest);
}

export async function functionsUpToDate(sql: postgres.Sql): Promise<boolean> {
  return stale(readFunctionFiles(), await installedDigests(sql)).length === 0;
}

/** Creates or replaces each function whose file changed, in one transaction. Returns the names installed. */
export async function installFunctions(sql: postgres.Sql): Promise<string[]> {
  const pending = stale(readFunctionFiles(), await installedDigests(sql));
  if (pending.length === 0) return [];
  await sql.begin(async (tx) => {
    // As pg_dump does: a body may name a function whose file comes later in the folder.
    await tx`set local check_function_bodies = off`;
    for (const file of pending) {
      await tx.unsafe(file.text);
      const [created] = await tx<{ signature: string }[]>`
        select p.oid::regprocedure::text as signature from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = ${file.name}`;
      if (!created) throw new Error(`db/functions/${file.name}.sql did not create a function named ${file.name}`);
      await tx.unsafe(`comment on function ${created.signature} is '${file.digest}'`);
    }
  });
  return pending.map((file) => file.name);
}

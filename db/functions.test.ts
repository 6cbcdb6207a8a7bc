// The files in db/functions/ are the functions the database runs: every function Quorum's schema has
// comes from a file, and each installed definition is exactly what its file creates.
import { afterAll, describe, expect, it } from "vitest";
import { getConnection } from "./client";
import { functionsUpToDate, installFunctions, readFunctionFiles } from "./install-functions";

const sql = getConnection().sql;
const files = readFunctionFiles();

afterAll(async () => {
  await sql`drop schema if exists quorum_function_check cascade`;
});

/** pg_get_functiondef of every function in a schema, by name, with the schema's name taken out. */
async function definitionsIn(schema: string): Promise<Map<string, string>> {
  const rows = await sql<{ name: string; definition: string }[]>`
    select p.proname as name, pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = ${schema}`;
  return new Map(rows.map((row) => [row.name, row.definition.replace(`FUNCTION ${schema}.`, "FUNCTION ")]));
}

describe("db/functions", () => {
  it("holds every function and trigger function the schema has, and nothing else", async () => {
    const installed = [...(await definitionsIn("public")).keys()].sort();
    expect(files.map((file) => file.name)).toEqual(installed);
    const triggers = await sql<{ fn: string }[]>`
      select distinct p.proname as fn from pg_trigger t join pg_proc p on p.oid = t.tgfoid where not t.tgisinternal`;
    for (const { fn } of triggers) expect(installed).toContain(fn);
  });

  it("is the text the database runs: each file, created afresh, defines what is installed", async () => {
    await sql`drop schema if exists quorum_function_check cascade`;
    await sql`create schema quorum_function_check`;
    await sql.begin(async (tx) => {
      await tx`set local check_function_bodies = off`;
      for (const file of files) {
        const renamed = file.text.replace(new RegExp(`FUNCTION\\s+(public\\.)?${file.name}\\s*\\(`, "i"), `FUNCTION quorum_function_check.${file.name}(`);
        expect(renamed, `db/functions/${file.name}.sql creates ${file.name}`).not.toBe(file.text);
        await tx.unsafe(renamed);
      }
    });
    const fresh = await definitionsIn("quorum_function_check");
    const installed = await definitionsIn("public");
    for (const file of files) expect(installed.get(file.name), `db/functions/${file.name}.sql differs from the installed function`).toBe(fresh.get(file.name));
  });

  it("installs a changed file on the next migration, and a current database needs nothing", async () => {
    expect(await functionsUpToDate(sql)).toBe(true);
    expect(await installFunctions(sql)).toEqual([]);
    await sql`comment on function quorum_settle_horizon() is null`;
    expect(await functionsUpToDate(sql)).toBe(false);
    expect(await installFunctions(sql)).toEqual(["quorum_settle_horizon"]);
    expect(await functionsUpToDate(sql)).toBe(true);
  });
});

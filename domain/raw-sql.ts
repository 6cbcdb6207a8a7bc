// The hot paths' statements: postgres.js tagged templates on the drizzle transaction's own connection.
//
// A tagged template is a named prepared statement, described once per connection and then sent in
// one trip; several of them issued without awaiting in between are pipelined in a single trip. (drizzle's
// own queries are made named prepared statements too, by `connect` in db/client.ts: drizzle sends them
// unnamed, and postgres.js would have the server describe each before binding it, two trips a query.)
// Timestamps travel as text both ways here (drizzle installs pass-through parsers for them on the
// shared client): send ISO strings with a `::timestamptz` cast, read epoch milliseconds. Arrays: postgres.js
// serialises a JS array as text[] but not as uuid[] or timestamptz[], so send text[] and cast (`::text[]::uuid[]`).
import { getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";
import type postgres from "postgres";
import type { Db } from "../db/client";

/** Any postgres.js client a hot statement may run on: a transaction's, a reserved connection, the pool. */
export type RawSql = postgres.Sql;

/** The process's postgres.js client under a drizzle database, for one autocommitted statement. */
export function rawClientOf(db: Db): postgres.Sql {
  const client = (db as Db & { $client?: postgres.Sql }).$client;
  if (!client || typeof client.unsafe !== "function") throw new Error("rawClientOf: this drizzle database has no postgres.js client");
  return client;
}

/** A transaction whose BEGIN travels with its first statements and whose COMMIT travels with its last. */
export interface Pipeline {
  sql: postgres.ReservedSql;
  /** Sends `last` and COMMIT together, and resolves to `last`'s rows once both are done. */
  commitWith<R>(last: postgres.PendingQuery<R extends readonly postgres.MaybeRow[] ? R : never>): Promise<R>;
}

/**
 * Runs `body` in a transaction on a connection of its own, pipelined: BEGIN is sent (not awaited)
 * ahead of the body's first statements, and `commitWith` sends the last statement and COMMIT in
 * one trip; anything thrown before then rolls back. A post is then two round trips (BEGIN + locks +
 * facts, write + COMMIT) where drizzle's `db.transaction` takes four with the same statements,
 * and the room lock is held across one trip instead of two.
 */
export async function pipelinedTransaction<T>(db: Db, body: (pipeline: Pipeline) => Promise<T>): Promise<T> {
  const sql = await rawClientOf(db).reserve();
  let open = true;
  const begin = sql`begin`.execute();
  begin.catch(() => {}); // its failure fails the statements behind it, which the body awaits
  const pipeline: Pipeline = {
    sql,
    async commitWith(last) {
      const sent = last.execute();
      const commit = sql`commit`.execute();
      open = false; // COMMIT is on the wire: the transaction ends (a failed statement makes it a rollback)
      const [rows] = await Promise.all([sent, commit]);
      return rows as never;
    },
  };
  try {
    const result = await body(pipeline);
    await begin;
    if (open) {
      open = false;
      await sql`commit`;
    }
    return result;
  } catch (error) {
    if (open) await sql`rollback`.catch(() => {});
    throw error;
  } finally {
    sql.release();
  }
}

/**
 * Reads a table's rows from a hot statement as drizzle would: `columns(alias)` is the select list
 * (`alias."snake_name" as "camelKey"`, a constant, so the statement stays one prepared statement)
 * and `read` maps each value through its column (timestamps to Dates, bigints to numbers).
 */
export function rowReader<T extends Table>(table: T) {
  const columns = Object.entries(getTableColumns(table));
  return {
    columns: (alias: string) => columns.map(([key, column]) => `${alias}."${column.name}" as "${key}"`).join(", "),
    read: (row: Record<string, unknown>): InferSelectModel<T> =>
      Object.fromEntries(columns.map(([key, column]) => [key, row[key] === null || row[key] === undefined ? null : column.mapFromDriverValue(row[key])])) as InferSelectModel<T>,
  };
}

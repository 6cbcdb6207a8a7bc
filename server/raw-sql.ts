// The hot paths' statements: postgres.js tagged templates on the drizzle transaction's own connection.
//
// drizzle sends its queries unnamed (`prepare: false`), and postgres.js then asks the server to
// describe every parameterised statement before it binds it: two network round trips a query.
// A tagged template is a named prepared statement, described once per connection and then sent in
// one trip; several of them issued without awaiting in between are pipelined in a single trip.
// Timestamps travel as text both ways here (drizzle installs pass-through parsers for them on the
// shared client): send ISO strings with a `::timestamptz` cast, read epoch milliseconds.
import type postgres from "postgres";
import type { Db, Tx } from "../db/client";

export type RawSql = postgres.TransactionSql;

/** The postgres.js transaction a drizzle transaction runs on: both write in the same transaction. */
export function rawSqlOf(tx: Tx): RawSql {
  const client = (tx as unknown as { session?: { client?: RawSql } }).session?.client;
  if (!client || typeof client.unsafe !== "function") throw new Error("rawSqlOf: this drizzle transaction has no postgres.js client (drizzle changed?)");
  return client;
}

/** The process's postgres.js client under a drizzle database, for one autocommitted statement. */
export function rawClientOf(db: Db): postgres.Sql {
  const client = (db as Db & { $client?: postgres.Sql }).$client;
  if (!client || typeof client.unsafe !== "function") throw new Error("rawClientOf: this drizzle database has no postgres.js client");
  return client;
}

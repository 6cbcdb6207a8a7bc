// One postgres.js client per process (a globalThis singleton survives Next's hot reloads).
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction has the same query surface as the database; server functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface Connection {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export function connect(url: string, options: { max?: number } = {}): Connection {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // bigint columns (seq, event ids) stay well inside 2^53; read them as numbers.
    types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
  });
  const db = drizzle(sql, { schema, casing: "snake_case" });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/** The same server's URL with another database name (scratch and admin databases in tests and benches). */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const holder = globalThis as unknown as { __quorumConnection?: Connection & { url: string } };

/** The process-wide connection, from DATABASE_URL. */
export function getConnection(): Connection {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Quorum with `npm start` or set it yourself");
  if (!holder.__quorumConnection || holder.__quorumConnection.url !== url) {
    holder.__quorumConnection = { ...connect(url), url };
  }
  return holder.__quorumConnection;
}

export function getDb(): Db {
  return getConnection().db;
}

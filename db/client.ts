// One database per process: a postgres.js pool and its hot lanes (a globalThis singleton survives Next's hot reloads).
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

/** The hot lanes (see `hotLaneOf`) and how many connections each keeps, at most the pool's own size. */
const HOT_LANES = {
  claims: Math.max(1, Number(process.env.QUORUM_CLAIMS_LANE) || 2),
  posts: Math.max(1, Number(process.env.QUORUM_POSTS_LANE) || 4),
};
export type HotLane = keyof typeof HOT_LANES;

// The lanes ride on the database object under a registered symbol, not in a module-level map: Next's
// bundle loads its own copy of this module, and it is handed the process's database (getConnection's
// globalThis singleton) made by the other copy.
const LANES = Symbol.for("quorum.hotLanes");
type WithLanes = Db & { [LANES]?: Record<HotLane, postgres.Sql>; [WAITS]?: PoolWaits };

/**
 * How long this process's transactions waited for a connection of the pool (each `begin` until its first
 * statement may run, BEGIN's round trip included): what /metrics reports as pool waits (domain/metrics/).
 * Kept as plain sums on the database object, which every copy of this module shares (see LANES).
 */
export interface PoolWaits {
  /** Transactions that got their connection. */
  transactions: number;
  /** Their waits, summed. */
  waitSeconds: number;
  /** Transactions asking for a connection right now. */
  waiting: number;
}
const WAITS = Symbol.for("quorum.poolWaits");

/** Times every transaction's wait for its connection: two clock reads and a counter per transaction. */
function timeTransactions(sql: postgres.Sql, waits: PoolWaits): void {
  const begin = sql.begin.bind(sql) as (options: string, fn: (tx: postgres.TransactionSql) => unknown) => Promise<unknown>;
  const timed = (options: unknown, fn?: unknown) => {
    const body = (fn ?? options) as (tx: postgres.TransactionSql) => unknown;
    const asked = performance.now();
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      waits.waiting--;
      waits.transactions++;
      waits.waitSeconds += (performance.now() - asked) / 1000;
    };
    waits.waiting++;
    return begin(fn ? (options as string) : "", (tx) => {
      start();
      // A transaction's client is made afresh by each BEGIN: its drizzle statements are prepared too.
      prepareDrizzleStatements(tx);
      return body(tx);
    }).catch((error: unknown) => {
      // BEGIN itself failed (the connection was lost): the wait is over all the same.
      if (!started) {
        started = true;
        waits.waiting--;
      }
      throw error;
    });
  };
  Object.assign(sql, { begin: timed });
}

/**
 * Makes a client's parameterised `unsafe` statements — every drizzle query, on the pool and in its transactions — named prepared
 * statements. drizzle sends them unnamed, and postgres.js then has the server describe each one before binding
 * it: two round trips a query, where a statement prepared once per connection takes one from then on (the
 * endpoints bench, bench/endpoints.ts). Each connection keeps the statements it prepared until postgres.js
 * retires it (`max_lifetime`, 30–60 minutes), which bounds what the varying IN-lists of drizzle's queries cost
 * the server. Statements without parameters already take one trip (the simple protocol) and are left alone.
 */
function prepareDrizzleStatements(sql: postgres.Sql | postgres.TransactionSql): void {
  const unsafe = sql.unsafe.bind(sql) as (query: string, args?: unknown[], options?: postgres.UnsafeQueryOptions) => unknown;
  const prepared = (query: string, args?: unknown, options?: unknown) => {
    // unsafe(query, options): no parameters.
    if (!Array.isArray(args) || args.length === 0) return unsafe(query, args as unknown[], options as postgres.UnsafeQueryOptions);
    return unsafe(query, args, { ...(options as postgres.UnsafeQueryOptions), prepare: true });
  };
  Object.assign(sql, { unsafe: prepared });
}

/**
 * `max`: the pool's size (10); `name`: its backends' application_name ("quorum"; a lane's adds " claims lane"…);
 * `debug`: told every statement as it is sent (bench/endpoints.ts records what a request runs to replay it bare).
 */
export function connect(url: string, options: { max?: number; name?: string; debug?: postgres.Options<never>["debug"] } = {}): Connection {
  const max = options.max ?? 10;
  const name = options.name ?? "quorum";
  const clientOf = (size: number, applicationName: string) =>
    postgres(url, {
      max: size,
      // No JIT: every statement the app runs reads a page or writes a few rows, but the planner's estimate for the
      // journal's direct-message rule grows with the journal past jit_above_cost, and compiling then took seconds
      // for a read that runs in milliseconds (bench/results/notebook.md).
      connection: { application_name: applicationName, jit: "off" },
      onnotice: () => {},
      debug: options.debug,
      // bigint columns (seq, event ids) stay well inside 2^53; read them as numbers.
      types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
    });
  const sql = clientOf(max, name);
  const waits: PoolWaits = { transactions: 0, waitSeconds: 0, waiting: 0 };
  timeTransactions(sql, waits);
  prepareDrizzleStatements(sql);
  const db = drizzle(sql, { schema, casing: "snake_case" });
  (db as WithLanes)[WAITS] = waits;
  // A lane opens nothing until its first statement. Each is wrapped by drizzle too, for drizzle's value
  // handling (timestamps and json pass through as text), which the hot statements rely on.
  const laneOf = (lane: HotLane) => drizzle(clientOf(Math.min(HOT_LANES[lane], max), `${name} ${lane} lane`)).$client;
  const lanes = { claims: laneOf("claims"), posts: laneOf("posts") };
  (db as WithLanes)[LANES] = lanes;
  const clients = [sql, lanes.claims, lanes.posts];
  return { db, sql, close: async () => void (await Promise.all(clients.map((client) => client.end({ timeout: 5 })))) };
}

/**
 * The few connections that carry one kind of hot autocommitted statement (claim-next, posts) of a database
 * made by `connect`. postgres.js hands a query to the connection idle longest, so every connection of a
 * pool takes its turn at every statement, and a backend costs more per statement the more backends share
 * the work (per-backend caches of plans, catalog and relations, and presumably the CPU's). PgBouncer reuses
 * its most recent server connection for the same reason.
 *
 * Claims batch, so two backends keep up; posts commit one by one, and more backends share a WAL flush, so
 * they get four. Cursor acks were no faster on a lane and stay on the pool. The sizes were chosen by bench
 * runs (bench/results/notebook.md).
 *
 * A lane statement waits behind the ones before it on its connection, so never send one from inside an
 * open transaction that it might wait for (the hot paths post and claim after their commits already).
 */
export function hotLaneOf(db: Db, lane: HotLane): postgres.Sql {
  const lanes = (db as WithLanes)[LANES];
  if (!lanes) throw new Error("hotLaneOf: this database was not made by connect()");
  return lanes[lane];
}

/** The pool waits of a database made by `connect` (zeros for one made otherwise). */
export function poolWaitsOf(db: Db): PoolWaits {
  return (db as WithLanes)[WAITS] ?? { transactions: 0, waitSeconds: 0, waiting: 0 };
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

// What every surface (routes, MCP, sweepers) hands to server functions: built once per process here,
// so no route, page or surface reaches for the database client itself.
import { getConnection, type Connection, type Db } from "../db/client";
import { systemClock, type Clock } from "./clock";
import { subscribeToEvents, type Subscribe } from "./journal/listen";

export interface ServerContext {
  db: Db;
  clock: Clock;
  /** The journal's committed events, as this process's announcer reads them (one per process, fanned out). */
  subscribe: Subscribe;
}

/** A context over a connection the caller opened (the CLI, workers, benches, tests). */
export function contextOf(connection: Connection, clock: Clock = systemClock): ServerContext {
  return { db: connection.db, clock, subscribe: (subscriber, onGap) => subscribeToEvents(connection.sql, subscriber, onGap) };
}

const holder = globalThis as unknown as { __quorumContext?: ServerContext & { connection: unknown } };

/** The process-wide context from DATABASE_URL; rebuilt only if the connection changed (tests switch databases). */
export function serverContext(): ServerContext {
  const connection = getConnection();
  if (holder.__quorumContext?.connection !== connection) {
    holder.__quorumContext = { ...contextOf(connection), connection };
  }
  return holder.__quorumContext;
}

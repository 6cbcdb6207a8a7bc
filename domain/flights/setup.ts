// A flight's setup as the journal keeps it (agents/team/environment.ts runs it): when it began, how far it
// got, how it ended and the end of its log. The flight's environment is the one its last good setup names;
// the Board's flight card reads its state from here.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { EventPayloads } from "../journal/payloads";
import type { Principal } from "../principal";
import type { Flight } from "./launch";

/** The end of a failed setup's log that the flight's card shows (the journal keeps up to SETUP_LOG_CHARS). */
const SHOWN_LOG_CHARS = 8_000;

/** How much of a setup's output its FlightSetupEnded keeps. */
export const SETUP_LOG_CHARS = 32_000;

export interface SetupState {
  command: string;
  /** `given`, `file` (.quorum/setup) or `detected`. */
  source: string;
  status: "pending" | "running" | "done" | "failed";
  /** Running: its output's last line; done: how long it took (0 when reused); failed: why. */
  line: string | null;
  elapsedMs: number | null;
  reused: boolean;
  /** The end of a failed setup's output. */
  log: string | null;
  /** When its state last changed. */
  at: string | null;
}

type Ended = EventPayloads["FlightSetupEnded"];

async function append<K extends "FlightSetupStarted" | "FlightSetupProgress" | "FlightSetupEnded">(
  db: Db,
  actor: Principal,
  flight: Flight,
  kind: K,
  data: EventPayloads[K],
  clock: Clock,
): Promise<void> {
  await db.transaction(async (tx) => {
    await appendEvent(tx, { kind, actor: actor.id, taskId: flight.goalTaskId, t: clock.now(), data } as Parameters<typeof appendEvent>[1]);
  });
}

export function recordSetupStarted(db: Db, actor: Principal, flight: Flight, data: EventPayloads["FlightSetupStarted"], clock: Clock) {
  return append(db, actor, flight, "FlightSetupStarted", data, clock);
}

export function recordSetupProgress(db: Db, actor: Principal, flight: Flight, data: EventPayloads["FlightSetupProgress"], clock: Clock) {
  return append(db, actor, flight, "FlightSetupProgress", data, clock);
}

export function recordSetupEnded(db: Db, actor: Principal, flight: Flight, data: Ended, clock: Clock) {
  return append(db, actor, flight, "FlightSetupEnded", { ...data, log: data.log.slice(-SETUP_LOG_CHARS) }, clock);
}

/** The digest of the environment the flight's last good setup built or reused; null when it has none. */
export async function environmentDigestOf(db: Executor, flightId: string): Promise<string | null> {
  const [row] = await db
    .select({ data: events.data })
    .from(events)
    .where(and(eq(events.kind, "FlightSetupEnded"), sql`${events.data}->>'flightId' = ${flightId}`, sql`(${events.data}->>'ok')::boolean`))
    .orderBy(desc(events.id))
    .limit(1);
  return row ? (row.data as Ended).digest : null;
}

/** Each flight's setup as its card shows it: the latest of its setup's events decides. */
export async function setupStatesOf(db: Executor, flights: readonly Pick<Flight, "id" | "setupCommand" | "setupSource">[]): Promise<Map<string, SetupState>> {
  const states = new Map<string, SetupState>();
  const withSetup = flights.filter((flight) => flight.setupCommand);
  if (withSetup.length === 0) return states;
  const latest = await db
    .selectDistinctOn([sql`${events.data}->>'flightId'`], { kind: events.kind, data: events.data, t: events.t })
    .from(events)
    .where(
      and(
        inArray(events.kind, ["FlightSetupStarted", "FlightSetupProgress", "FlightSetupEnded"]),
        inArray(
          sql`${events.data}->>'flightId'`,
          withSetup.map((flight) => flight.id),
        ),
      ),
    )
    .orderBy(sql`${events.data}->>'flightId'`, desc(events.id));
  for (const flight of withSetup) {
    const base = { command: flight.setupCommand!, source: flight.setupSource ?? "given", line: null, elapsedMs: null, reused: false, log: null, at: null };
    const event = latest.find((row) => (row.data as { flightId: string }).flightId === flight.id);
    if (!event) {
      states.set(flight.id, { ...base, status: "pending" });
      continue;
    }
    const at = event.t.toISOString();
    if (event.kind === "FlightSetupStarted") states.set(flight.id, { ...base, status: "running", elapsedMs: 0, at });
    else if (event.kind === "FlightSetupProgress") {
      const data = event.data as EventPayloads["FlightSetupProgress"];
      states.set(flight.id, { ...base, status: "running", line: data.line, elapsedMs: data.elapsedMs, at });
    } else {
      const data = event.data as Ended;
      states.set(flight.id, {
        ...base,
        status: data.ok ? "done" : "failed",
        line: data.ok ? null : data.reason,
        elapsedMs: data.elapsedMs,
        reused: data.reused,
        log: data.ok ? null : data.log.slice(-SHOWN_LOG_CHARS),
        at,
      });
    }
  }
  return states;
}

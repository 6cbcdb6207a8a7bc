// What the monitor's high findings show people: on each flight's Board card, and under "waiting for you"
// for the flight's human while its goal is open. Read from the journal (DiagnosisFound) under the visibility
// rule, so a finding that cites a direct message reaches only its two ends and humans.
import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { events, flights, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { payloadOf } from "../journal/payloads";
import { eventsVisibleTo } from "../journal/visibility";
import type { Principal } from "../principal";

export interface DiagnosisAlert {
  /** The finding's own key (its mode and the event that first showed it). */
  key: string;
  flightId: string;
  mode: string;
  name: string;
  sentence: string;
  taskIds: string[];
  /** The DiagnosisFound event, and when the monitor journalled it. */
  eventId: number;
  since: string;
}

/** The high findings journalled for these flights, oldest first, each once. */
export async function highFindings(db: Executor, flightIds: readonly string[], viewer?: Principal): Promise<Map<string, DiagnosisAlert[]>> {
  const byFlight = new Map<string, DiagnosisAlert[]>();
  if (flightIds.length === 0) return byFlight;
  const rows = await db
    .select({ id: events.id, t: events.t, kind: events.kind, data: events.data })
    .from(events)
    .where(
      and(
        eq(events.kind, "DiagnosisFound"),
        sql`${events.data}->>'severity' = 'high'`,
        inArray(sql`${events.data}->>'flightId'`, [...flightIds]),
        viewer ? eventsVisibleTo(viewer) : undefined,
      ),
    )
    .orderBy(asc(events.id));
  for (const row of rows) {
    const d = payloadOf(row, "DiagnosisFound");
    const key = d.key.replace(/@\w+$/, "");
    const list = byFlight.get(d.flightId) ?? [];
    if (list.some((a) => a.key === key)) continue;
    list.push({ key, flightId: d.flightId, mode: d.mode, name: d.name, sentence: d.sentence, taskIds: d.taskIds, eventId: row.id, since: row.t.toISOString() });
    byFlight.set(d.flightId, list);
  }
  return byFlight;
}

/** The flights of `human` whose goal is still open (not done, not cancelled), with their goal's number. */
export async function openFlightsOf(db: Executor, human: Principal): Promise<{ id: string; number: number; goalNumber: number }[]> {
  return db
    .select({ id: flights.id, number: flights.number, goalNumber: tasks.number })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(and(eq(tasks.approverId, human.id), notInArray(tasks.status, ["done", "cancelled"])));
}

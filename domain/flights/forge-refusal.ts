// When the forge refuses what the hub does for a flight's pull request (opening it, marking a draft ready,
// reading it back), the hub tries again at the team's next turn; the flight's human is told once, under "waiting
// for you", with the forge's words (never the token), until a step goes through. A refusal repeated in the same
// words journals nothing new: each retry is not news.
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { flights, tasks } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import type { Flight } from "./launch";

export type ForgeStep = "open" | "ready" | "read";

const STEP_WORDS: Record<ForgeStep, string> = {
  open: "open its pull request",
  ready: "mark its draft pull request ready",
  read: "read its pull request",
};

/** A forge's refusal of a step on one flight, in words a person can act on (the token already redacted). */
export class ForgeRefused extends Error {
  constructor(
    readonly flight: Pick<Flight, "id" | "number">,
    readonly step: ForgeStep,
    readonly host: string,
    reason: string,
  ) {
    super(`${host} refused to ${STEP_WORDS[step]} for flight ${flight.number}: ${reason}`);
  }
}

/** Records the refusal on its flight and journals FlightForgeRefused, unless the flight already says exactly this. */
export async function recordForgeRefusal(db: Db, actor: Principal, refused: ForgeRefused, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    const [flight] = await tx.select().from(flights).where(eq(flights.id, refused.flight.id)).for("update");
    if (!flight || flight.mergedAt || flight.closedAt || flight.forgeRefusal === refused.message) return;
    const now = clock.now();
    await tx.update(flights).set({ forgeRefusal: refused.message, forgeRefusedAt: now }).where(eq(flights.id, flight.id));
    await appendEvent(tx, {
      kind: "FlightForgeRefused",
      actor: actor.id,
      taskId: flight.goalTaskId,
      t: now,
      data: { flightId: flight.id, number: flight.number, step: refused.step, host: refused.host, reason: refused.message },
    });
  });
}

/** A step went through: the refusal on record, if any, is over (FlightForgeAnswered), in the caller's transaction. */
export async function clearForgeRefusal(tx: Executor, actor: Principal, flightId: string, now: Date): Promise<void> {
  const [flight] = await tx.select({ refusal: flights.forgeRefusal, number: flights.number, goalTaskId: flights.goalTaskId }).from(flights).where(eq(flights.id, flightId));
  if (!flight?.refusal) return;
  await tx.update(flights).set({ forgeRefusal: null, forgeRefusedAt: null }).where(eq(flights.id, flightId));
  await appendEvent(tx, { kind: "FlightForgeAnswered", actor: actor.id, taskId: flight.goalTaskId, t: now, data: { flightId, number: flight.number } });
}

/** The open flights whose goal `approverId` reviews and whose forge refuses a step now, oldest refusal first. */
export async function refusedFlightsOf(db: Executor, approverId: string) {
  return db
    .select({ flightId: flights.id, flightNumber: flights.number, goalNumber: tasks.number, reason: flights.forgeRefusal, since: flights.forgeRefusedAt })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(and(isNotNull(flights.forgeRefusal), isNull(flights.mergedAt), isNull(flights.closedAt), eq(tasks.approverId, approverId)))
    .orderBy(asc(flights.forgeRefusedAt))
    .limit(20);
}

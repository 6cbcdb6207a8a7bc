// The MAST monitor, live: a sweeper that reads the journal's settled tail past its watermark, diagnoses the
// flights those events belong to, and journals each finding not yet journalled (DiagnosisFound), in the same
// transaction that moves its watermark. One pass at a time across instances (an advisory lock); a finding is
// journalled once per key and severity (diagnosis_keys, written with it: db/schema/diagnosis.ts), so one that got worse
// — accepted after it was found — is journalled again, high; a high one fires `diagnosis.found`
// (db/functions/quorum_webhook_outbox.sql) and waits for the flight's human (./alerts.ts).
import { eq, inArray, or, sql } from "drizzle-orm";
import { diagnosisKeys, diagnosisWatermark, events, flights, flightTasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Finding } from "./finding";
import { diagnoseFlight } from "./scope";

/** How many new events one pass reads at most; the next pass goes on from there. */
const BATCH = 5_000;

/** The key a finding is journalled under: a finding that got worse is a new one. */
export const journalKeyOf = (finding: Pick<Finding, "key" | "severity">) => `${finding.key}@${finding.severity}`;

interface Tail {
  read: number;
  throughTx: number;
  throughId: number;
  taskIds: string[];
  runIds: string[];
}

/**
 * The settled events past the watermark, in commit-safe order: where they end, and which tasks and runs they
 * touch. The first pass ever (no watermark yet) starts at the journal's settled tail: the monitor watches what
 * happens from now on, and history is diagnosed on demand, never paged.
 */
async function tailPast(tx: Tx, clock: Clock): Promise<Tail | null> {
  const [at] = await tx.select().from(diagnosisWatermark).where(eq(diagnosisWatermark.id, 1));
  if (!at) {
    const [end] = await tx.execute<{ tx: string; id: number }>(
      sql`select tx_id::text as tx, id from events where tx_id < quorum_settle_horizon() order by tx_id desc, id desc limit 1`,
    );
    await tx.insert(diagnosisWatermark).values({ id: 1, throughTx: Number(end?.tx ?? 0), throughId: Number(end?.id ?? 0), sweptAt: clock.now() });
    return null;
  }
  const rows = await tx.execute<{ tx: string; id: number; task_id: string | null; run_id: string | null }>(sql`
    select tx_id::text as tx, id, task_id, run_id from events
    where tx_id < quorum_settle_horizon() and (tx_id, id) > (${String(at.throughTx)}::xid8, ${at.throughId}::bigint)
    order by tx_id, id limit ${BATCH}`);
  const last = rows.at(-1);
  if (!last) return null;
  return {
    read: rows.length,
    throughTx: Number(last.tx),
    throughId: Number(last.id),
    taskIds: [...new Set(rows.map((r) => r.task_id).filter((id): id is string => id !== null))],
    runIds: [...new Set(rows.filter((r) => r.task_id === null && r.run_id !== null).map((r) => r.run_id!))],
  };
}

/** The flights whose goal or planned tasks those events are about (a run's events through the task it works on). */
async function flightsTouched(tx: Tx, tail: Tail): Promise<{ id: string; goalTaskId: string }[]> {
  const ofRuns = tail.runIds.length
    ? (await tx.selectDistinct({ taskId: events.taskId }).from(events).where(inArray(events.runId, tail.runIds))).map((r) => r.taskId).filter((id): id is string => id !== null)
    : [];
  const taskIds = [...new Set([...tail.taskIds, ...ofRuns])];
  if (taskIds.length === 0) return [];
  const planned = tx.select({ flightId: flightTasks.flightId }).from(flightTasks).where(inArray(flightTasks.taskId, taskIds));
  return tx
    .select({ id: flights.id, goalTaskId: flights.goalTaskId })
    .from(flights)
    .where(or(inArray(flights.goalTaskId, taskIds), inArray(flights.id, planned)));
}

export interface DiagnosisSweep {
  /** New events read (0: caught up, or another instance holds the pass). */
  read: number;
  /** Findings journalled. */
  journalled: number;
}

/** One pass over at most BATCH new events. */
export async function sweepDiagnosis(db: Db, clock: Clock): Promise<DiagnosisSweep> {
  return db.transaction(async (tx) => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(hashtext('quorum:diagnosis-monitor')) as locked`);
    if (!locked) return { read: 0, journalled: 0 };
    const tail = await tailPast(tx, clock);
    if (!tail) return { read: 0, journalled: 0 };
    let journalled = 0;
    for (const flight of await flightsTouched(tx, tail)) {
      const findings = await diagnoseFlight(tx, flight.id);
      if (findings.length === 0) continue;
      for (const f of findings) {
        // The key's primary key decides: a finding already journalled claims nothing, and is not journalled again.
        const claimed = await tx
          .insert(diagnosisKeys)
          .values({ key: journalKeyOf(f), flightId: flight.id })
          .onConflictDoNothing()
          .returning({ key: diagnosisKeys.key });
        if (claimed.length === 0) continue;
        await appendEvent(tx, {
          kind: "DiagnosisFound",
          actor: null,
          taskId: flight.goalTaskId,
          t: clock.now(),
          data: {
            key: journalKeyOf(f),
            flightId: flight.id,
            mode: f.mode,
            name: f.name,
            category: f.category,
            severity: f.severity,
            sentence: f.sentence,
            eventIds: f.eventIds,
            runIds: f.runIds,
            taskIds: f.taskIds,
            agents: f.agents,
          },
        });
        journalled++;
      }
    }
    await tx
      .insert(diagnosisWatermark)
      .values({ id: 1, throughTx: tail.throughTx, throughId: tail.throughId, sweptAt: clock.now() })
      .onConflictDoUpdate({ target: diagnosisWatermark.id, set: { throughTx: tail.throughTx, throughId: tail.throughId, sweptAt: clock.now() } });
    return { read: tail.read, journalled };
  });
}

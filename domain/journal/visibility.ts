// Who may read what: a direct message, and every event about it, is seen only by its two ends and by
// humans (DESIGN §3). One rule, as SQL, for the messages table and for the journal, used by every read.
import { and, eq, inArray, isNull, or, sql, type Column, type SQL, type SQLWrapper } from "drizzle-orm";
import { events, messages } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import type { EventKind } from "./kinds";

/** Kinds that are a direct message, or a refused attempt at one: the actor sent it, `data.to` receives it. */
const DIRECT_KINDS = ["MessageSent", "GateRejected"] as const satisfies readonly EventKind[];

/** Kinds that name messages by id (`messageId`, `messageIds`): a delivery, a digest's batch. */
const REFERRING_KINDS = ["MessageDelivered", "DigestFlushed"] as const satisfies readonly EventKind[];

/**
 * A run's working context: the mail its model read (ModelCalled) and what it made of it (the response,
 * the tool calls and their results). Once a run has read a direct message, everything it says from that
 * turn on may quote it, so those events go to the message's two ends (the run's agent is the recipient).
 */
const CONTEXT_KINDS = ["ModelCalled", "ModelResponded", "ToolDispatched", "ToolRetried", "ToolReturned"] as const satisfies readonly EventKind[];

/** Kinds that name other events as their evidence (`eventIds`): seen only by who may see every one of them. */
const CITING_KINDS = ["DiagnosisFound"] as const satisfies readonly EventKind[];

/** Every kind the rule may hide; events of other kinds are never about a direct message. */
export const KINDS_THAT_MAY_CONCERN_DIRECT_MESSAGES: ReadonlySet<string> = new Set([...DIRECT_KINDS, ...REFERRING_KINDS, ...CONTEXT_KINDS, ...CITING_KINDS]);

/** Humans oversee every conversation; agents (and the system principal, which reads nothing) are bound by the rule. */
function seesEverything(viewer: Principal): boolean {
  return viewer.kind === "human";
}

/**
 * A `where` for the messages table: the rows `viewer` may read (undefined: all of them). `table` is the
 * messages table or an alias of it, for a subquery that reads other messages than the outer row.
 */
export function messagesVisibleTo(viewer: Principal, table: { toId: Column; senderId: Column } = messages): SQL | undefined {
  if (seesEverything(viewer)) return undefined;
  return or(isNull(table.toId), eq(table.toId, viewer.id), eq(table.senderId, viewer.id));
}

const list = (kinds: readonly string[]) =>
  sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );

/** A message by id that is direct and not `viewer`'s: the rows that make an event that names them hidden. */
function othersDirectMessage(viewer: Principal, id: SQL): SQL {
  return sql`exists (select 1 from ${messages} where ${messages.id} = ${id} and ${messages.toId} is not null and ${messages.toId} <> ${viewer.id}::uuid and ${messages.senderId} <> ${viewer.id}::uuid)`;
}

/** The numbers at a JSON path of `data` (lax: a missing key yields nothing, a non-number is skipped). */
function idsAt(data: SQL, path: string): SQL {
  return sql`select (r #>> '{}')::bigint as id from jsonb_path_query(${data}, ${`lax ${path} ? (@.type() == "number")`}::jsonpath) r`;
}

/** The events table's columns, or an alias's: the rule reads the same columns of either. */
type EventsTable = Record<"kind" | "data" | "actor" | "runId" | "turn", SQLWrapper>;

/** The columns of `events` under an alias of the FROM clause. */
const aliased = (name: string): EventsTable => ({
  kind: sql.raw(`${name}.kind`),
  data: sql.raw(`${name}.data`),
  actor: sql.raw(`${name}.actor`),
  runId: sql.raw(`${name}.run_id`),
  turn: sql.raw(`${name}.turn`),
});

/** Whether an event (a row of `e`) is about a direct message `viewer` is not party to. */
function aboutOthersDirectMessage(viewer: Principal, e: EventsTable): SQL {
  const me = sql`${viewer.id}::uuid`;
  const refs = sql`${idsAt(sql`${e.data}`, "$.messageId")} union all ${idsAt(sql`${e.data}`, "$.messageIds[*]")}`;
  const direct = sql`(${e.kind} in (${list(DIRECT_KINDS)}) and ${e.data}->>'to' is not null and ${e.actor} is distinct from ${me} and ${e.data}->>'to' <> ${viewer.id})`;
  const referring = sql`(${e.kind} in (${list(REFERRING_KINDS)}) and exists (select 1 from (${refs}) ref where ${othersDirectMessage(viewer, sql`ref.id`)}))`;
  // The run's ModelCalled events up to this one's turn that delivered mail (events_run_mail_idx holds just
  // those: a turn that read no mail cannot have quoted any), with the ids of the mail each delivered.
  const context = sql`(${e.kind} in (${list(CONTEXT_KINDS)}) and ${e.runId} is not null and ${e.actor} is distinct from ${me} and exists (
    select 1 from events mc, lateral (${idsAt(sql`mc.data`, "$.mail[*].messageId")}) mail
    where mc.run_id = ${e.runId} and mc.kind = 'ModelCalled' and mc.data->'mail' <> '[]'::jsonb and mc.turn <= ${e.turn}
      and ${othersDirectMessage(viewer, sql`mail.id`)}))`;
  return sql`(${direct} or ${referring} or ${context})`;
}

/**
 * A `where` for the `events` table (unaliased, as every journal read selects it): the events `viewer`
 * may read (undefined: all of them). Kept in SQL so that pages keep their size and cursors stay exact.
 */
export function eventsVisibleTo(viewer: Principal): SQL | undefined {
  if (seesEverything(viewer)) return undefined;
  // A finding cites its evidence by id: one that cites an event hidden from the viewer is hidden too.
  const citing = sql`(${events.kind} in (${list(CITING_KINDS)}) and exists (
    select 1 from events cited where cited.id in (${idsAt(sql`${events.data}`, "$.eventIds[*]")}) and ${aboutOthersDirectMessage(viewer, aliased("cited"))}))`;
  return sql`not (${aboutOthersDirectMessage(viewer, events)} or ${citing})`;
}

/** Of these event ids, the ones `viewer` may read (the live stream asks this of each notice it forwards). */
export async function visibleEventIds(db: Executor, viewer: Principal, ids: readonly number[]): Promise<Set<number>> {
  if (seesEverything(viewer) || ids.length === 0) return new Set(ids);
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .where(and(inArray(events.id, [...ids]), eventsVisibleTo(viewer)));
  return new Set(rows.map((r) => r.id));
}

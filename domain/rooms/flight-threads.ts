// A flight's thread: the messages about its goal task or one of its planned tasks (flight_tasks). The Room
// folds each thread into one entry of the room's stream and reads a thread on its own; the relay, its gates
// and the agents read the room whole as before, so threads change what people see, never what is delivered.
import { and, Column, eq, getTableName, is, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { flights, messages } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { messagesVisibleTo } from "../journal/visibility";

/** What the room's stream says of a thread at its first message. */
export interface ThreadSummary {
  /** The thread's messages after the first that the reader may see. */
  replies: number;
  /** When its latest message was posted. */
  lastActivityAt: string;
}

/**
 * A column named with its table, always: drizzle drops the table from a query of one table, and inside the
 * subqueries below an unqualified `task_id` would name flight_tasks' own column instead of the message's.
 */
function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** Every flight's tasks, goal and planned, each with its flight's number: `(task_id, number)` rows. */
const THREAD_TASKS = sql`(select f.goal_task_id as task_id, f.number::int as number from flights f
  union all select ft.task_id, f.number::int from flight_tasks ft join flights f on f.id = ft.flight_id)`;

/** The number of the flight whose goal or planned task `taskId` is; null for a message about no flight's task. */
export function flightNumberOf(taskId: Column | SQL): SQL<number | null> {
  const id = is(taskId, Column) ? qualified(taskId) : taskId;
  return sql<number | null>`(case when ${id} is null then null else (select tt.number from ${THREAD_TASKS} tt where tt.task_id = ${id} limit 1) end)`;
}

/** A `where` for the messages table: the rows of flight `number`'s thread (found through the task index). */
export function inFlightThread(number: number): SQL {
  return sql`${qualified(messages.taskId)} = any(array(select tt.task_id from ${THREAD_TASKS} tt where tt.number = ${number}))`;
}

/**
 * A `where` for the messages table: the row is about no flight's task. The tasks are read once per query and
 * hashed, so the stream costs a lookup per message, however many flights there are.
 */
export function aboutNoFlight(): SQL {
  const taskId = qualified(messages.taskId);
  return sql`(${taskId} is null or ${taskId} not in (select tt.task_id from ${THREAD_TASKS} tt))`;
}

const EARLIER = "earlier";
const earlier = alias(messages, EARLIER);

/**
 * A `where` for the messages table of `room`: the row opens its flight's thread for `viewer`, the first of the
 * flight's messages in the room that `viewer` may see (the shared rule on direct messages). Every thread's
 * opening is found in one grouped read per query, not one search per message.
 */
export function opensItsThread(viewer: Principal, room: string): SQL {
  const openings = sql`select min(${qualified(earlier.seq)}) from ${messages} as ${sql.identifier(EARLIER)} join ${THREAD_TASKS} tt on tt.task_id = ${qualified(earlier.taskId)}
    where ${and(sql`${qualified(earlier.room)} = ${room}`, messagesVisibleTo(viewer, earlier))} group by tt.number`;
  return sql`${qualified(messages.seq)} in (${openings})`;
}

/** Refuses a thread of a flight that does not exist: a mistyped number is not an empty thread. */
export async function assertFlightExists(db: Executor, number: number): Promise<void> {
  const [row] = await db.select({ id: flights.id }).from(flights).where(eq(flights.number, number));
  if (!row) throw fail.notFound("flight", `no flight numbered ${number}`);
}

/** The flight a task belongs to, for a message about it; null when it belongs to none. */
export async function flightOfTask(db: Executor, taskId: string): Promise<number | null> {
  const [row] = await db.execute<{ flight: number | null }>(sql`select ${flightNumberOf(sql`${taskId}::uuid`)} as flight`);
  return row?.flight ?? null;
}

/**
 * Each of the flights `numbers` as a thread of `room` that `viewer` sees: where it opens (the seq of its first
 * visible message), how many replies follow and when the latest came. One grouped read through the task index.
 */
export async function threadSummaries(db: Executor, viewer: Principal, room: string, numbers: number[]): Promise<Map<number, ThreadSummary & { firstSeq: number }>> {
  if (numbers.length === 0) return new Map();
  // The latest time as the API writes every time (ISO, milliseconds, UTC), so it compares with the messages' own.
  const rows = await db.execute<{ number: number; first_seq: string; count: string; last_at: string }>(sql`
    select tt.number, min(${qualified(messages.seq)}) as first_seq, count(*) as count,
      to_char(max(${qualified(messages.createdAt)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
    from ${messages} join ${THREAD_TASKS} tt on tt.task_id = ${qualified(messages.taskId)}
    where ${and(sql`tt.number = any(${`{${numbers.join(",")}}`}::int[])`, eq(messages.room, room), messagesVisibleTo(viewer))}
    group by tt.number`);
  return new Map(rows.map((row) => [Number(row.number), { firstSeq: Number(row.first_seq), replies: Number(row.count) - 1, lastActivityAt: row.last_at }]));
}

// Which journal history may leave the database (DESIGN §4, "Retention"): the rule `quorum journal archive`
// asks before it writes a file. The folds that read a task's, a run's or a flight's own events (a resume
// point, the run fence, a task's rework count, a flight's integrations, a lesson's task…) must see all of
// that subject's events or none: so every task and run with an event before the cutoff must be over and
// have no event after it, and every flight named there must have its goal closed. (The folds that sum
// over all history — spend, review records, the bill — keep tallies instead: ./tallies.ts, ./fold-check.ts.)
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";

const LIST = 10;
const STATUS_WORDS: Record<string, string> = { ready: "ready", in_progress: "in progress", review: "in review" };

/** Everything that keeps the journal before `cutoff` from being archived, each in words (the task, run or flight and why); empty when it may go. */
export async function archiveBlockers(db: Executor, cutoff: Date): Promise<string[]> {
  const at = cutoff.toISOString();
  const day = at.slice(0, 10);
  const blockers: string[] = [];
  const openTasks = await db.execute<{ number: number; title: string; status: string; n: number }>(sql`
    with inside as (select distinct task_id from events where t < ${at}::timestamptz and task_id is not null)
    select t.number, t.title, t.status, count(*) over ()::int as n
    from inside i join tasks t on t.id = i.task_id
    where t.status not in ('done', 'cancelled')
    order by t.number limit ${LIST}`);
  for (const task of openTasks) {
    blockers.push(
      `task #${task.number} “${task.title.slice(0, 60)}” is ${STATUS_WORDS[task.status] ?? task.status}: its events before ${day} are read while it is open (finish or cancel it first)`,
    );
  }
  const straddling = await db.execute<{ number: number; title: string; last: Date; n: number }>(sql`
    with inside as (select distinct task_id from events where t < ${at}::timestamptz and task_id is not null)
    select t.number, t.title, later.last, count(*) over ()::int as n
    from inside i join tasks t on t.id = i.task_id and t.status in ('done', 'cancelled')
    cross join lateral (select max(e.t) as last from events e where e.task_id = i.task_id and e.t >= ${at}::timestamptz) later
    where later.last is not null
    order by t.number limit ${LIST}`);
  for (const task of straddling) {
    blockers.push(
      `task #${task.number} “${task.title.slice(0, 60)}” has events on both sides of ${day} (its last on ${new Date(task.last).toISOString().slice(0, 10)}): a task's history is archived whole`,
    );
  }
  const runs = await db.execute<{ run_id: string; unfinished: boolean; last: Date | null; n: number }>(sql`
    with inside as (select distinct run_id from events where t < ${at}::timestamptz and run_id is not null)
    select i.run_id,
      not exists (select 1 from events f where f.run_id = i.run_id and f.kind = 'AgentFinished')
        and not exists (select 1 from events s where s.run_id = i.run_id and s.task_id is not null) as unfinished,
      (select max(e.t) from events e where e.run_id = i.run_id and e.t >= ${at}::timestamptz) as last,
      count(*) over ()::int as n
    from inside i
    where (select max(e.t) from events e where e.run_id = i.run_id and e.t >= ${at}::timestamptz) is not null
       or (not exists (select 1 from events f where f.run_id = i.run_id and f.kind = 'AgentFinished')
           and not exists (select 1 from events s where s.run_id = i.run_id and s.task_id is not null))
    order by i.run_id limit ${LIST}`);
  for (const run of runs) {
    blockers.push(
      run.last
        ? `run ${run.run_id} has events on both sides of ${day} (its last on ${new Date(run.last).toISOString().slice(0, 10)}): a run's history is archived whole`
        : `run ${run.run_id} has not finished and works on no task: it can still be resumed from its events`,
    );
  }
  const flights = await db.execute<{ number: number; goal: string; status: string; n: number }>(sql`
    with inside as (select distinct data->>'flightId' as flight_id from events where t < ${at}::timestamptz and data ? 'flightId')
    select f.number, f.goal, g.status, count(*) over ()::int as n
    from inside i join flights f on f.id::text = i.flight_id join tasks g on g.id = f.goal_task_id
    where g.status not in ('done', 'cancelled')
    order by f.number limit ${LIST}`);
  for (const flight of flights) {
    blockers.push(
      `flight ${flight.number} (“${flight.goal.slice(0, 60)}”) is still open (its goal is ${STATUS_WORDS[flight.status] ?? flight.status}): its events are read until its goal is done or cancelled`,
    );
  }
  const more = [openTasks, straddling, runs, flights].reduce((sum, rows) => sum + Math.max(0, (rows[0]?.n ?? 0) - rows.length), 0);
  if (more > 0) blockers.push(`and ${more} more like these`);
  return blockers;
}

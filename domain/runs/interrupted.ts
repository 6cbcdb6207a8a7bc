// The runs a team member carries on before it takes new work: on each task it still holds in progress, its
// newest run there when that run never ended (its process died: no AgentFinished, BudgetExhausted or
// RunStopped), or when a human asked to resume it (a ResumeRequested newer than the run's own last step).
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

export interface RunToCarryOn {
  runId: string;
  taskId: string;
  /** Why: the run was cut off, or a person asked. */
  why: "interrupted" | "resume_requested";
}

export async function runsToCarryOn(db: Db, agentId: string): Promise<RunToCarryOn[]> {
  const rows = await db.execute<{ run_id: string; task_id: string; ended: boolean; asked: boolean }>(sql`
    select latest.run_id, t.id as task_id,
      exists (select 1 from events x where x.run_id = latest.run_id and x.kind in ('AgentFinished', 'BudgetExhausted', 'RunStopped')) as ended,
      coalesce((select max(r.id) from events r where r.run_id = latest.run_id and r.kind = 'ResumeRequested'), 0)
        > (select max(s.id) from events s where s.run_id = latest.run_id and s.kind not in ('StopRequested', 'ResumeRequested')) as asked
    from tasks t
    cross join lateral (
      select e.run_id from events e
      where e.task_id = t.id and e.kind = 'RunStarted' and e.actor = t.owner_id
      order by e.id desc limit 1
    ) latest
    where t.status = 'in_progress' and t.owner_id = ${agentId}::uuid
    order by t.number`);
  return rows.filter((row) => row.asked || !row.ended).map((row) => ({ runId: row.run_id, taskId: row.task_id, why: row.asked ? "resume_requested" : "interrupted" }));
}

-- The numbers of the tasks p_task depends on that still hold it back (the one home of "a dependency is met"): a
-- dependency is met once it is done and, for a flight's task, integrated into the flight's branch, so the
-- work that waited for it starts from a branch that has it. A task is claimed only while nothing holds it
-- back (quorum_claim_refusal reads tasks.waiting_on, which quorum_recount_waiting keeps equal to how many
-- these are); server/tasks/dependencies.ts names them in a refusal.
CREATE OR REPLACE FUNCTION public.quorum_waiting_on(p_task uuid)
 RETURNS bigint[]
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(array_agg(b.number ORDER BY b.number), '{}')
  FROM task_dependencies d
    JOIN tasks b ON b.id = d.depends_on_id
    LEFT JOIN flight_tasks f ON f.task_id = b.id
  WHERE d.task_id = p_task
    AND NOT (b.status = 'done' AND (f.task_id IS NULL OR f.integrated_at IS NOT NULL))
$function$
;

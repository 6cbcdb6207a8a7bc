-- Keeps tasks.waiting_on equal to how many tasks quorum_waiting_on names, so the claim's rule stays one expression over a row
-- (a subquery in it would keep the planner from inlining it into claim-next's search). Recounts the task a
-- new dependency holds back, and the dependents of a task that becomes done or stops being done, or is
-- integrated. Triggers on task_dependencies, tasks and flight_tasks (migration 0033).
CREATE OR REPLACE FUNCTION public.quorum_recount_waiting()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_TABLE_NAME = 'task_dependencies' THEN
    UPDATE tasks SET waiting_on = cardinality(quorum_waiting_on(id)) WHERE id = NEW.task_id;
  ELSIF TG_TABLE_NAME = 'tasks' THEN
    UPDATE tasks t SET waiting_on = cardinality(quorum_waiting_on(t.id))
    FROM task_dependencies d WHERE d.depends_on_id = NEW.id AND t.id = d.task_id;
  ELSE
    UPDATE tasks t SET waiting_on = cardinality(quorum_waiting_on(t.id))
    FROM task_dependencies d WHERE d.depends_on_id = NEW.task_id AND t.id = d.task_id;
  END IF;
  RETURN NULL;
END $function$
;

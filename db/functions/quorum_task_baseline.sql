-- The baseline a task is judged against (DESIGN §21): its flight's suite at the base commit, for a task of the flight
-- and for its goal alike; null for a task of no flight, or a flight whose baseline has not run.
CREATE OR REPLACE FUNCTION public.quorum_task_baseline(p_task uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT f.baseline_tests FROM public.flights f
  WHERE f.goal_task_id = p_task OR f.id = (SELECT ft.flight_id FROM public.flight_tasks ft WHERE ft.task_id = p_task)
  LIMIT 1
$function$
;

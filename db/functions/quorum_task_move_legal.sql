-- Whether a task may go from p_from to p_to: the task board's state machine, which the guard on tasks
-- (quorum_tasks_guard) holds every writer to. Written by `npm run db:moves` from domain/tasks/moves.ts, where
-- the table lives; edit it there (domain/tasks/moves.test.ts fails while this file differs).
CREATE OR REPLACE FUNCTION public.quorum_task_move_legal(p_from text, p_to text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT (p_from, p_to) IN (('done', 'ready'), ('in_progress', 'cancelled'), ('in_progress', 'ready'), ('in_progress', 'review'), ('ready', 'cancelled'), ('ready', 'in_progress'), ('review', 'cancelled'), ('review', 'done'), ('review', 'in_progress'))
$function$
;

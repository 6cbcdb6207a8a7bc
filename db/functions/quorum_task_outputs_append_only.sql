-- A task's output items are never rewritten or removed (DESIGN §6): a replacement resumes from
-- them. Trigger on task_outputs (migration 0003).
CREATE OR REPLACE FUNCTION public.quorum_task_outputs_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'task output is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $function$
;

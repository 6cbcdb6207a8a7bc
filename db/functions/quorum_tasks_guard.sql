-- The task board's state machine and fencing (DESIGN §6), held by the database so that no second
-- writer can skip them: legal moves only (quorum_task_move_legal, written from server/tasks/moves.ts), the
-- fence moves by exactly one on a claim and never otherwise, the owner changes only through ready, output
-- only grows. Trigger on tasks (migration 0003).
CREATE OR REPLACE FUNCTION public.quorum_tasks_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.status <> OLD.status AND NOT quorum_task_move_legal(OLD.status, NEW.status) THEN
    RAISE EXCEPTION 'task %: % -> % is not a legal transition', OLD.id, OLD.status, NEW.status
      USING ERRCODE = 'check_violation';
  END IF;
  -- A claim is the only thing that moves the fence, and it moves it by exactly one.
  IF OLD.status = 'ready' AND NEW.status = 'in_progress' THEN
    IF NEW.fence <> OLD.fence + 1 THEN
      RAISE EXCEPTION 'task %: a claim must set fence to % (got %)', OLD.id, OLD.fence + 1, NEW.fence
        USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.fence <> OLD.fence THEN
    RAISE EXCEPTION 'task %: the fence changes only on a claim', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  -- While the task stays with its owner (in progress, in review, sent back), nobody else takes it.
  IF OLD.status IN ('in_progress', 'review') AND NEW.status IN ('in_progress', 'review', 'done')
     AND NEW.owner_id IS DISTINCT FROM OLD.owner_id THEN
    RAISE EXCEPTION 'task %: the owner changes only through ready', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.output_count < OLD.output_count THEN
    RAISE EXCEPTION 'task %: output is append-only', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$
;

-- A task's dependencies never close a cycle ("B waits for A" and "A waits for B" would wait forever). Edge
-- insertion is serialised on one lock (advisory key 8451104), so two edges that together close a cycle
-- are checked one after the other and the second sees the first. The refusal names the cycle's path (task
-- numbers), which server/tasks/dependencies.ts turns into 409 `cycle`. Trigger on task_dependencies
-- (migration 0033).
CREATE OR REPLACE FUNCTION public.quorum_task_dependency_acyclic()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_path text;
BEGIN
  PERFORM pg_advisory_xact_lock(8451104);
  WITH RECURSIVE reach(node, path) AS (
    SELECT NEW.depends_on_id, ARRAY[NEW.task_id, NEW.depends_on_id]
    UNION ALL
    SELECT d.depends_on_id, r.path || d.depends_on_id
    FROM task_dependencies d JOIN reach r ON d.task_id = r.node
    WHERE NOT d.depends_on_id = ANY (r.path[2:])
  )
  SELECT string_agg((SELECT '#' || t.number FROM tasks t WHERE t.id = step), ' -> ' ORDER BY ord)
  INTO v_path
  FROM (SELECT path FROM reach WHERE node = NEW.task_id LIMIT 1) found, unnest(found.path) WITH ORDINALITY AS u(step, ord);
  IF v_path IS NOT NULL THEN
    RAISE EXCEPTION 'this dependency would close a cycle: %', v_path USING ERRCODE = 'check_violation', HINT = 'quorum:cycle';
  END IF;
  RETURN NEW;
END $function$
;

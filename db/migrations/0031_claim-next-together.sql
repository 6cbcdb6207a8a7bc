-- Claims that queue in one process go in as one statement (server/tasks/claim-together.ts calls this;
-- the numbers are there). Each caller is matched as a lone claim-next would match it: a task offered to
-- it first, else, in the order the callers came, the oldest ready tasks with acceptance criteria, the
-- first caller the oldest. A caller matched with a task it approves is told to claim again alone
-- (claim_retry), where the lone claim skips that task; so is a caller left without one while a task held
-- here went unclaimed. Each claim writes TaskClaimed and, for an agent,
-- its window opened or moved with FocusWindowOpened, claim after claim in the callers' order.
--
-- Candidates are held with FOR UPDATE SKIP LOCKED, as many as there are callers: none waits on another
-- claimer, and fewer than asked means the board (what no one else holds of it) is exhausted. The callers'
-- open windows are locked in id order, as a batch of posts takes them (migration 0030): no deadlock.
--
-- A function for one reason: plan_cache_mode. As a prepared statement PostgreSQL re-planned it on every
-- call (the generic plan, costed for arrays of unknown length, never looked cheaper than a custom one),
-- and planning took half its time: a batch of two 2.4 ms, of sixteen 4.0 ms, against 1.35 ms and 2.8 ms
-- with the generic plan (embedded PostgreSQL 18, one connection, 2026-12-01). Only unscoped claims go
-- together; a claim within a goal's subtasks goes alone.
CREATE OR REPLACE FUNCTION quorum_claim_next_tasks(p_callers uuid[], p_kinds text[], p_nows timestamptz[], p_lease_secs int)
RETURNS TABLE (claim_ordinal int, claim_retry boolean, claimed_task tasks, approver_name text, approver_kind text, created_by_name text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY
  WITH callers AS (
    SELECT c.id, c.kind, c.now, c.ordinal::int AS ordinal
    FROM unnest(p_callers, p_kinds, p_nows) WITH ORDINALITY AS c(id, kind, now, ordinal)
  ), offered AS (
    SELECT t.id, t.number, t.offered_to, t.approver_id FROM tasks t
    WHERE t.status = 'ready' AND t.offered_to = ANY (p_callers) AND t.acceptance_criteria ~ '\S'
    ORDER BY t.number FOR UPDATE SKIP LOCKED
  ), offered_first AS (
    SELECT DISTINCT ON (o.offered_to) o.offered_to AS caller_id, o.id, o.approver_id FROM offered o ORDER BY o.offered_to, o.number
  ), in_line AS (
    SELECT c.*, row_number() OVER (ORDER BY c.ordinal) AS place FROM callers c
    WHERE NOT EXISTS (SELECT FROM offered_first f WHERE f.caller_id = c.id)
  ), candidates AS (
    SELECT k.id, k.approver_id, row_number() OVER (ORDER BY k.number) AS place FROM (
      SELECT t.id, t.number, t.approver_id FROM tasks t
      WHERE t.status = 'ready' AND t.acceptance_criteria ~ '\S' AND (t.offered_to IS NULL OR t.offered_to <> ALL (p_callers))
      ORDER BY t.number LIMIT cardinality(p_callers) FOR UPDATE SKIP LOCKED) k
  ), matched AS (
    SELECT c.ordinal, c.id AS owner_id, c.kind, c.now, f.id AS task_id, f.approver_id
    FROM callers c JOIN offered_first f ON f.caller_id = c.id
    UNION ALL
    SELECT l.ordinal, l.id, l.kind, l.now, k.id, k.approver_id FROM in_line l LEFT JOIN candidates k ON k.place = l.place
  ), held AS (
    SELECT w.id, w.agent_id, w.task_id FROM focus_windows w
    WHERE w.agent_id = ANY (p_callers) AND w.closed_at IS NULL ORDER BY w.id FOR UPDATE
  ), claimed AS (
    UPDATE tasks t SET status = 'in_progress', owner_id = m.owner_id, fence = t.fence + 1,
      lease_expires_at = m.now + make_interval(secs => coalesce(t.lease_minutes * 60, p_lease_secs)),
      offered_to = NULL, updated_at = m.now
    FROM matched m
    WHERE t.id = m.task_id AND m.approver_id <> m.owner_id AND t.status = 'ready'
    RETURNING t AS task, m.ordinal, m.kind = 'agent' AS focuses, m.now
  ), opened AS (
    -- Only agents focus; an agent with a window open moves it (below).
    INSERT INTO focus_windows (agent_id, task_id, opened_at)
    SELECT (c.task).owner_id, (c.task).id, c.now FROM claimed c
    WHERE c.focuses AND NOT EXISTS (SELECT FROM held h WHERE h.agent_id = (c.task).owner_id)
    ON CONFLICT DO NOTHING
    RETURNING agent_id
  ), moved AS (
    UPDATE focus_windows f SET task_id = (c.task).id
    FROM claimed c, held h
    WHERE c.focuses AND h.agent_id = (c.task).owner_id AND f.id = h.id AND h.task_id <> (c.task).id
    RETURNING f.agent_id, h.task_id AS previous
  ), journal AS (
    INSERT INTO events (kind, actor, task_id, t, data)
    SELECT e.kind, e.actor, e.task_id, e.t, e.data FROM (
      SELECT c.ordinal, 1 AS step, 'TaskClaimed' AS kind, (c.task).owner_id AS actor, (c.task).id AS task_id, c.now AS t,
        jsonb_build_object('number', (c.task).number, 'ownerId', (c.task).owner_id, 'fence', (c.task).fence,
          'leaseExpiresAt', to_char((c.task).lease_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'outputCount', (c.task).output_count, 'via', 'claim-next') AS data
      FROM claimed c
      UNION ALL
      SELECT c.ordinal, 2, 'FocusWindowOpened', (c.task).owner_id, (c.task).id, c.now,
        jsonb_build_object('agentId', (c.task).owner_id, 'taskId', (c.task).id)
      FROM claimed c JOIN opened o ON o.agent_id = (c.task).owner_id
      UNION ALL
      SELECT c.ordinal, 2, 'FocusWindowOpened', (c.task).owner_id, (c.task).id, c.now,
        jsonb_build_object('agentId', (c.task).owner_id, 'taskId', (c.task).id, 'previousTaskId', m.previous)
      FROM claimed c JOIN moved m ON m.agent_id = (c.task).owner_id
      ORDER BY 1, 2) e
  )
  -- A caller left without a task is told "none" only when every task held went to a caller: if one was
  -- held but not taken (its caller approves it, or a second task offered to the same caller), that
  -- caller would have got it alone, so it claims again alone instead.
  SELECT m.ordinal,
    CASE WHEN m.task_id IS NOT NULL THEN m.approver_id = m.owner_id
      ELSE (SELECT count(*) FROM offered) > (SELECT count(*) FROM offered_first)
        OR EXISTS (SELECT FROM matched x WHERE x.approver_id = x.owner_id) END,
    c.task,
    (SELECT p.name FROM principals p WHERE p.id = (c.task).approver_id),
    (SELECT p.kind FROM principals p WHERE p.id = (c.task).approver_id),
    (SELECT p.name FROM principals p WHERE p.id = (c.task).created_by)
  FROM matched m LEFT JOIN claimed c ON c.ordinal = m.ordinal
  ORDER BY m.ordinal;
END $$;

-- What starting work on a task writes (DESIGN §5, §6), the one home of it: a claim, by id (takeTask,
-- server/tasks/claim.ts), by claim-next alone (server/tasks/claim-next.ts) or together
-- (quorum_claim_next_tasks), and the owner taking back a task its approver sent back (openFocusWindow,
-- server/relay/focus.ts, for server/tasks/review.ts). Work i is task p_tasks[i] for p_owners[i], a principal of
-- kind p_kinds[i], at p_nows[i], each owner at most once per call; p_via says how it starts:
--
-- 'claim' or 'claim-next': a claim, if that owner may take the task (quorum_may_claim; a null task, or a
-- refused one, claims nothing). The task goes in progress under its owner, fence + 1, a lease of
-- quorum_lease_length (p_lease_secs is the default, for a task without a length of its own), offered to no
-- one; TaskClaimed records it, with p_via as its via. 'rework': the caller has put the task back in
-- progress; nothing is claimed.
--
-- Then the owner's focus window follows the work: while an agent works a task, room messages wait in its
-- digest. An agent with no open window gets one; one whose window is open for another task keeps its
-- digest and the window moves to the new task; one already on that task keeps its window. Only agents
-- focus: a human is never held. Each window opened or moved journals FocusWindowOpened, right after its
-- claim's TaskClaimed, claim after claim in the order given: one insert for every event. Several owners' open windows are locked in id order first, as a batch of posts takes them
-- (quorum_post_messages): no deadlock. Two claims by one agent that race both find no window; the partial
-- unique index focus_windows_open_idx keeps one, the first to insert it. Returns each claim made with the
-- names its view shows (server/tasks/claimed.ts reads them).
--
-- One function, and lean, because every claim goes through it: the window is opened only when the agent has
-- none, else moved (no speculative insert); one insert for every event; the approver and author joined, not
-- read by three subqueries; the window written here, not by a function of its own that this one calls
-- (figures: bench/results/notebook.md).
--
-- plpgsql for its cached plan (a LANGUAGE sql function is planned afresh on every call before PostgreSQL 18),
-- and the generic one, which fits every call: ids in arrays, the tasks found by primary key. The update finds
-- them by `id = ANY (p_tasks)` and asks the rule as quorum_claim_refusal, not quorum_may_claim, whose
-- `status = 'ready'` the planner took as the way in: on a young board (no statistics yet) the generic plan
-- read every ready task through tasks_ready_idx and hashed them to find the one claimed
-- (bench/results/notebook.md), and sequential scans stay off for the same reason, so the young board's
-- plan is the primary key's too. A lone claim locks no window ahead: only several owners'
-- windows need taking in id order, and the row lock was one more WAL record a claim.
CREATE OR REPLACE FUNCTION public.quorum_start_work(p_tasks uuid[], p_owners uuid[], p_kinds text[], p_nows timestamp with time zone[], p_lease_secs integer, p_via text)
 RETURNS TABLE(claim_ordinal integer, claimed_task tasks, approver_name text, approver_kind text, created_by_name text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
AS $function$
BEGIN
  IF cardinality(p_owners) > 1 THEN
    -- Several owners' windows: locked in id order first, as a batch of posts takes them (no deadlock).
    PERFORM 1 FROM focus_windows f WHERE f.agent_id = ANY (p_owners) AND f.closed_at IS NULL ORDER BY f.id FOR UPDATE;
  END IF;
  RETURN QUERY
  WITH work AS (
    SELECT w.task_id, w.owner_id, w.kind, w.now, w.ordinal::int AS ordinal
    FROM unnest(p_tasks, p_owners, p_kinds, p_nows) WITH ORDINALITY AS w(task_id, owner_id, kind, now, ordinal)
  ), claimed AS (
    UPDATE tasks t SET status = 'in_progress', owner_id = w.owner_id, fence = t.fence + 1,
      lease_expires_at = w.now + quorum_lease_length(t.lease_minutes, p_lease_secs),
      offered_to = NULL, updated_at = w.now
    FROM work w
    WHERE p_via <> 'rework' AND t.id = ANY (p_tasks) AND t.id = w.task_id
      AND quorum_claim_refusal(t.status, t.acceptance_criteria, t.approver_id, w.owner_id, t.waiting_on) IS NULL
    RETURNING t AS task, t.id, t.owner_id, t.number, t.fence, t.lease_expires_at, t.output_count, t.approver_id, t.created_by, w.kind, w.ordinal, w.now
  ), started AS (
    SELECT c.id AS task_id, c.owner_id, c.kind, c.now, c.ordinal FROM claimed c
    UNION ALL
    SELECT w.task_id, w.owner_id, w.kind, w.now, w.ordinal FROM work w WHERE p_via = 'rework'
  ), focusing AS (
    SELECT s.* FROM started s WHERE s.kind = 'agent'
  ), held AS (
    SELECT f.id, f.agent_id, f.task_id FROM focus_windows f
    WHERE f.agent_id = ANY (p_owners) AND f.closed_at IS NULL
  ), opened AS (
    INSERT INTO focus_windows (agent_id, task_id, opened_at)
    SELECT s.owner_id, s.task_id, s.now FROM focusing s
    WHERE NOT EXISTS (SELECT FROM held h WHERE h.agent_id = s.owner_id)
    ON CONFLICT DO NOTHING
    RETURNING focus_windows.agent_id
  ), moved AS (
    UPDATE focus_windows f SET task_id = s.task_id
    FROM focusing s, held h
    WHERE h.agent_id = s.owner_id AND f.id = h.id AND h.task_id <> s.task_id
    RETURNING f.agent_id, h.task_id AS previous
  ), journal AS (
    INSERT INTO events (kind, actor, task_id, t, data)
    SELECT e.kind, e.actor, e.task_id, e.t, e.data FROM (
      SELECT c.ordinal, 1 AS step, 'TaskClaimed' AS kind, c.owner_id AS actor, c.id AS task_id, c.now AS t,
        jsonb_build_object('number', c.number, 'ownerId', c.owner_id, 'fence', c.fence,
          'leaseExpiresAt', to_char(c.lease_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'outputCount', c.output_count, 'via', p_via) AS data
      FROM claimed c
      UNION ALL
      SELECT s.ordinal, 2, 'FocusWindowOpened', s.owner_id, s.task_id, s.now, jsonb_build_object('agentId', s.owner_id, 'taskId', s.task_id)
      FROM focusing s JOIN opened o ON o.agent_id = s.owner_id
      UNION ALL
      SELECT s.ordinal, 2, 'FocusWindowOpened', s.owner_id, s.task_id, s.now,
        jsonb_build_object('agentId', s.owner_id, 'taskId', s.task_id, 'previousTaskId', m.previous)
      FROM focusing s JOIN moved m ON m.agent_id = s.owner_id
      ORDER BY 1, 2) e
  )
  SELECT c.ordinal, c.task, approver.name, approver.kind, creator.name
  FROM claimed c
    JOIN principals approver ON approver.id = c.approver_id
    JOIN principals creator ON creator.id = c.created_by
  ORDER BY c.ordinal;
END $function$
;

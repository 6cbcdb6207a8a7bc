-- The one home of the order a claimer's next task is found in (DESIGN §6): the task the lease sweeper offered
-- to it, else the lowest-numbered task it may claim (quorum_may_claim). Every search for a next task is a call
-- of this function: claim-next alone and the claims that queue in one process (domain/tasks/claim-next.ts,
-- claim-together.ts), and a coder's claim within its flight (domain/flights/work.ts).
--
-- p_parent narrows the search to one parent's subtasks (a flight's goal); with p_flight it also passes over
-- the flight's tasks cooling down or waiting for a re-plan (quorum_flight_cooling). That is asked after the
-- search has locked what it found, in a statement of its own, so with a fresh snapshot: a release holds its
-- task's lock until it commits, so a task found ready is never taken on a cooling set read before the release
-- that readied it. A task passed over is searched past, and stays locked until the call ends.
--
-- Callers that queue in one process come in together, in the order they came (p_callers, p_kinds, p_nows), and
-- each is matched as a lone claim-next would match it: a task offered to it first, else, in that order, the
-- oldest tasks someone may claim, the first caller the oldest. A lone caller is named to quorum_may_claim, so
-- it never finds a task it approves; several are not (the search runs before they are matched). The claims
-- are then written as every claim is (quorum_start_work, TaskClaimed's via is p_via), which refuses a caller
-- matched with a task it approves: that caller is told to claim again alone (claim_retry), where the lone
-- claim skips that task; so is a caller left without one while a task held here went unclaimed.
--
-- Candidates are held with FOR UPDATE SKIP LOCKED, as many as there are callers: none waits on another
-- claimer, and fewer than asked means the board (what no one else holds of it) is exhausted. Both searches
-- walk a partial index on ready tasks (quorum_may_claim says how it keeps them able to; the scope is wrapped
-- in coalesce for the same reason, so the generic plan does not expect it to rule out nearly every task).
--
-- A function for one reason: plan_cache_mode. As a prepared statement PostgreSQL re-planned the batch on
-- every call (the generic plan, costed for arrays of unknown length, never looked cheaper than a custom one),
-- and planning took about half its time (bench/results/notebook.md).
CREATE OR REPLACE FUNCTION public.quorum_claim_next_tasks(p_callers uuid[], p_kinds text[], p_nows timestamp with time zone[], p_lease_secs integer, p_parent uuid, p_flight uuid, p_via text)
 RETURNS TABLE(claim_ordinal integer, claim_retry boolean, claimed_task tasks, approver_name text, approver_kind text, created_by_name text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_claimer uuid := CASE WHEN cardinality(p_callers) = 1 THEN p_callers[1] END;
  v_passed uuid[] := '{}';
  v_offered uuid[];
  v_offered_to uuid[];
  v_next uuid[];
  v_cooling uuid[];
BEGIN
  LOOP
    -- Every task offered to a caller, and the oldest others, as many as there are callers: both in number order.
    SELECT coalesce(array_agg(o.id ORDER BY o.number), '{}'), coalesce(array_agg(o.offered_to ORDER BY o.number), '{}')
    INTO v_offered, v_offered_to
    FROM (SELECT t.id, t.number, t.offered_to FROM tasks t
      WHERE t.offered_to = ANY (p_callers) AND quorum_may_claim(t.status, t.acceptance_criteria, t.approver_id, v_claimer, t.waiting_on)
        AND coalesce(p_parent IS NULL OR t.parent_id = p_parent, false) AND t.id <> ALL (v_passed)
      ORDER BY t.number FOR UPDATE SKIP LOCKED) o;
    SELECT coalesce(array_agg(k.id ORDER BY k.number), '{}') INTO v_next
    FROM (SELECT t.id, t.number FROM tasks t
      WHERE quorum_may_claim(t.status, t.acceptance_criteria, t.approver_id, v_claimer, t.waiting_on)
        AND (t.offered_to IS NULL OR t.offered_to <> ALL (p_callers))
        AND coalesce(p_parent IS NULL OR t.parent_id = p_parent, false) AND t.id <> ALL (v_passed)
      ORDER BY t.number LIMIT cardinality(p_callers) FOR UPDATE SKIP LOCKED) k;
    EXIT WHEN p_flight IS NULL;
    SELECT quorum_flight_cooling(p_flight, v_offered || v_next, p_nows[1]) INTO v_cooling;
    EXIT WHEN cardinality(v_cooling) = 0;
    v_passed := v_passed || v_cooling;
  END LOOP;

  RETURN QUERY
  WITH callers AS (
    SELECT c.id, c.kind, c.now, c.ordinal::int AS ordinal
    FROM unnest(p_callers, p_kinds, p_nows) WITH ORDINALITY AS c(id, kind, now, ordinal)
  ), offered_first AS (
    SELECT DISTINCT ON (o.offered_to) o.offered_to AS caller_id, o.id
    FROM unnest(v_offered, v_offered_to) WITH ORDINALITY AS o(id, offered_to, place)
    ORDER BY o.offered_to, o.place
  ), in_line AS (
    SELECT c.*, row_number() OVER (ORDER BY c.ordinal) AS place FROM callers c
    WHERE NOT EXISTS (SELECT FROM offered_first f WHERE f.caller_id = c.id)
  ), candidates AS (
    SELECT k.id, k.place FROM unnest(v_next) WITH ORDINALITY AS k(id, place)
  ), matched AS (
    SELECT c.ordinal, c.id AS owner_id, c.kind, c.now, f.id AS task_id
    FROM callers c JOIN offered_first f ON f.caller_id = c.id
    UNION ALL
    SELECT l.ordinal, l.id, l.kind, l.now, k.id FROM in_line l LEFT JOIN candidates k ON k.place = l.place
  ), claimed AS (
    SELECT w.* FROM (
      SELECT array_agg(m.task_id ORDER BY m.ordinal) AS tasks, array_agg(m.owner_id ORDER BY m.ordinal) AS owners,
        array_agg(m.kind ORDER BY m.ordinal) AS kinds, array_agg(m.now ORDER BY m.ordinal) AS nows
      FROM matched m) a,
      quorum_start_work(a.tasks, a.owners, a.kinds, a.nows, p_lease_secs, p_via) w
  )
  -- A caller left without a task is told "none" only when every task held went to a caller: if one was
  -- held but not taken (its caller approves it, or a second task offered to the same caller), that
  -- caller would have got it alone, so it claims again alone instead.
  SELECT m.ordinal,
    CASE WHEN m.task_id IS NOT NULL THEN c.claim_ordinal IS NULL
      ELSE cardinality(v_offered) > (SELECT count(*) FROM offered_first)
        OR EXISTS (SELECT FROM matched x WHERE x.task_id IS NOT NULL AND x.ordinal NOT IN (SELECT y.claim_ordinal FROM claimed y)) END,
    c.claimed_task, c.approver_name, c.approver_kind, c.created_by_name
  FROM matched m LEFT JOIN claimed c ON c.claim_ordinal = m.ordinal
  ORDER BY m.ordinal;
END $function$
;

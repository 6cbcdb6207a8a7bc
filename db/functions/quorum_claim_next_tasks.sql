-- Claims that queue in one process go in as one statement (server/tasks/claim-together.ts calls this;
-- the numbers are there). Each caller is matched as a lone claim-next would match it: a task offered to it
-- first, else, in the order the callers came, the oldest tasks someone may claim (quorum_may_claim with no
-- claimer named), the first caller the oldest. The claims are then written as every claim is
-- (quorum_start_work), which refuses a caller matched with a task it approves: that caller is told to
-- claim again alone (claim_retry), where the lone claim skips that task; so is a caller left without one
-- while a task held here went unclaimed.
--
-- Candidates are held with FOR UPDATE SKIP LOCKED, as many as there are callers: none waits on another
-- claimer, and fewer than asked means the board (what no one else holds of it) is exhausted. Both searches
-- walk a partial index on ready tasks (quorum_may_claim says how it keeps them able to).
--
-- A function for one reason: plan_cache_mode. As a prepared statement PostgreSQL re-planned it on every
-- call (the generic plan, costed for arrays of unknown length, never looked cheaper than a custom one),
-- and planning took about half its time (bench/results/notebook.md). Only unscoped claims go together; a
-- claim within a goal's subtasks goes alone.
CREATE OR REPLACE FUNCTION public.quorum_claim_next_tasks(p_callers uuid[], p_kinds text[], p_nows timestamp with time zone[], p_lease_secs integer)
 RETURNS TABLE(claim_ordinal integer, claim_retry boolean, claimed_task tasks, approver_name text, approver_kind text, created_by_name text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  RETURN QUERY
  WITH callers AS (
    SELECT c.id, c.kind, c.now, c.ordinal::int AS ordinal
    FROM unnest(p_callers, p_kinds, p_nows) WITH ORDINALITY AS c(id, kind, now, ordinal)
  ), offered AS (
    SELECT t.id, t.number, t.offered_to FROM tasks t
    WHERE t.offered_to = ANY (p_callers) AND quorum_may_claim(t.status, t.acceptance_criteria, t.approver_id, NULL, t.waiting_on)
    ORDER BY t.number FOR UPDATE SKIP LOCKED
  ), offered_first AS (
    SELECT DISTINCT ON (o.offered_to) o.offered_to AS caller_id, o.id FROM offered o ORDER BY o.offered_to, o.number
  ), in_line AS (
    SELECT c.*, row_number() OVER (ORDER BY c.ordinal) AS place FROM callers c
    WHERE NOT EXISTS (SELECT FROM offered_first f WHERE f.caller_id = c.id)
  ), candidates AS (
    SELECT k.id, row_number() OVER (ORDER BY k.number) AS place FROM (
      SELECT t.id, t.number FROM tasks t
      WHERE quorum_may_claim(t.status, t.acceptance_criteria, t.approver_id, NULL, t.waiting_on)
        AND (t.offered_to IS NULL OR t.offered_to <> ALL (p_callers))
      ORDER BY t.number LIMIT cardinality(p_callers) FOR UPDATE SKIP LOCKED) k
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
      quorum_start_work(a.tasks, a.owners, a.kinds, a.nows, p_lease_secs, 'claim-next') w
  )
  -- A caller left without a task is told "none" only when every task held went to a caller: if one was
  -- held but not taken (its caller approves it, or a second task offered to the same caller), that
  -- caller would have got it alone, so it claims again alone instead.
  SELECT m.ordinal,
    CASE WHEN m.task_id IS NOT NULL THEN c.claim_ordinal IS NULL
      ELSE (SELECT count(*) FROM offered) > (SELECT count(*) FROM offered_first)
        OR EXISTS (SELECT FROM matched x WHERE x.task_id IS NOT NULL AND x.ordinal NOT IN (SELECT y.claim_ordinal FROM claimed y)) END,
    c.claimed_task, c.approver_name, c.approver_kind, c.created_by_name
  FROM matched m LEFT JOIN claimed c ON c.claim_ordinal = m.ordinal
  ORDER BY m.ordinal;
END $function$
;

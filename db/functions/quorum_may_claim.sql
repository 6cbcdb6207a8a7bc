-- Whether p_claimer may claim the task: quorum_claim_refusal (the rule) has nothing against it, put so that
-- a search by it keeps the plan claim-next needs. Called by the search for a next task
-- (quorum_claim_next_tasks, every caller's) and by the write every claim goes through (quorum_start_work).
--
-- Inlined (one expression, IMMUTABLE), the planner sees two tests. `p_status = 'ready'`, though the rule
-- asks it too, in plain sight: it is what lets the partial indexes on ready tasks (tasks_ready_idx,
-- tasks_offered_idx) serve the search. And the rule's test, wrapped in coalesce for its estimate alone (it is
-- never null): PostgreSQL has no statistics for a CASE, and estimates `CASE … END IS NULL` at 0.005 of the
-- rows but an unknown boolean at one half. At 0.005 the generic plan sequentially scanned and sorted every
-- ready task for each claim; at one half it walks tasks_ready_idx in number order and stops at the first
-- row it can lock (bench/results/notebook.md has the EXPLAINs). That was the approver test's trap before:
-- written `<> $1`, a generic plan estimated it at 1 − 1/n_distinct, none at all on a board with one
-- approver. Inside the rule's CASE it no longer reaches the estimate.
CREATE OR REPLACE FUNCTION public.quorum_may_claim(p_status text, p_acceptance_criteria text, p_approver_id uuid, p_claimer uuid, p_waiting_on integer)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT p_status = 'ready' AND coalesce(quorum_claim_refusal(p_status, p_acceptance_criteria, p_approver_id, p_claimer, p_waiting_on) IS NULL, false)
$function$
;

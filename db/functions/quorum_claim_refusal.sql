-- Which task a principal may claim (DESIGN §6), the one home of the rule: null when p_claimer may take
-- the task, else why not, as a code server/tasks/claim.ts words for a claim by id: 'wrong_status' (it is
-- not ready), 'no_acceptance_criteria' (nobody wrote down what done means), 'waiting' (a task it depends
-- on is not finished: p_waiting_on is tasks.waiting_on, quorum_waiting_on's count) or 'approver' (an
-- approver is never the owner). A null p_claimer asks only of the task: a batch of claim-next matches its claimers to
-- tasks afterwards, and the write (quorum_start_work) asks again with each one.
--
-- A claim by id asks it of the row it locked; a search for a task (claim-next, alone and together) and the
-- write ask quorum_may_claim, its yes or no shaped for the planner. One expression, IMMUTABLE: inlined, it
-- costs a statement no call.
CREATE OR REPLACE FUNCTION public.quorum_claim_refusal(p_status text, p_acceptance_criteria text, p_approver_id uuid, p_claimer uuid, p_waiting_on integer)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN p_status <> 'ready' THEN 'wrong_status'
    WHEN NOT coalesce(p_acceptance_criteria ~ '\S', false) THEN 'no_acceptance_criteria'
    WHEN p_waiting_on > 0 THEN 'waiting'
    WHEN p_approver_id = p_claimer THEN 'approver'
  END
$function$
;

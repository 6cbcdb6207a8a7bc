-- Why an ACCEPT is refused by the tests, or null (DESIGN §21): the gate every review that accepts
-- passes, in the database like the relay's gates. A task with a test run behind its submission is accepted only
-- when its delta (quorum_test_delta) shows every target test passing and nothing newly broken; a task that names
-- target tests needs such a run. A task with neither (an outside agent's, judged by its approver) is not asked.
CREATE OR REPLACE FUNCTION public.quorum_accept_refusal(p_baseline jsonb, p_submitted jsonb, p_targets text[])
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN p_submitted IS NULL AND coalesce(cardinality(p_targets), 0) > 0
      THEN 'no test run stands behind the submission, and its target tests (' || array_to_string(p_targets, ', ') || ') must be seen passing'
    WHEN p_submitted IS NULL THEN NULL
    ELSE nullif(concat_ws('; ',
      CASE WHEN jsonb_array_length(d->'stillFailing') > 0 THEN 'target tests still failing: ' || (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(d->'stillFailing') x) END,
      CASE WHEN jsonb_array_length(d->'unseen') > 0 THEN 'target tests the run did not name: ' || (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(d->'unseen') x) END,
      CASE WHEN jsonb_array_length(d->'broken') > 0 THEN 'newly broken: ' || (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(d->'broken') x) END
    ), '')
  END
  FROM (SELECT public.quorum_test_delta(p_baseline, p_submitted, p_targets) AS d) delta
$function$
;

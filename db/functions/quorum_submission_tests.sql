-- What a submission's per-test results say, as TaskSubmitted journals it (DESIGN §21): how many tests passed and
-- failed, whether the flight had a baseline, and the delta the review's gate judges (quorum_test_delta). Null for a
-- submission that carried no per-test results. The monitor reads the delta from the journal, never computing its own.
CREATE OR REPLACE FUNCTION public.quorum_submission_tests(p_tests jsonb, p_targets text[], p_baseline jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_tests IS NULL THEN NULL ELSE jsonb_build_object(
    'passed', jsonb_array_length(coalesce(p_tests->'passed', '[]')),
    'failed', jsonb_array_length(coalesce(p_tests->'failed', '[]')),
    'baseline', p_baseline IS NOT NULL,
    'delta', public.quorum_test_delta(p_baseline, p_tests, p_targets)
  ) END
$function$
;

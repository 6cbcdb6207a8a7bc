-- A task's test delta, the one home of the rule (DESIGN §21): from the per-test results of the
-- run behind its submission (p_latest), the flight's baseline (p_baseline: the suite at the base commit) and
-- the tests it is meant to fix (p_targets), which targets pass now (fixed), still fail, or were not seen in the
-- run, which other tests fail now that did not fail at the baseline (broken), and which tests red at the baseline
-- no longer fail (repaired, targets or not: what the monitor reads of a task that names none). Results are
-- domain/verification/test-results.ts's shape: {namesPasses, truncated, passed[], failed[], skipped[]}. A target
-- names a test by its whole name or by its end after a separator (`slug > dashes`, `tests/x.py::test_y`,
-- `TestClamp/low`). Without a baseline every failing test that is no target counts as broken: nothing says it
-- was red before. A runner that names only failures (pytest's default) passes a target it does not name.
CREATE OR REPLACE FUNCTION public.quorum_test_delta(p_baseline jsonb, p_latest jsonb, p_targets text[])
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  WITH latest AS (
    SELECT coalesce((p_latest->>'namesPasses')::boolean, true) AND NOT coalesce((p_latest->>'truncated')::boolean, false) AS names_all,
           ARRAY(SELECT jsonb_array_elements_text(coalesce(p_latest->'passed', '[]'))) AS passed,
           ARRAY(SELECT jsonb_array_elements_text(coalesce(p_latest->'failed', '[]'))) AS failed
  ), targets AS (
    SELECT t,
           EXISTS (SELECT 1 FROM latest, unnest(latest.failed) n WHERE n = t OR (right(n, length(t)) = t AND left(n, length(n) - length(t)) ~ '( > |::|\.|/)$')) AS failing,
           EXISTS (SELECT 1 FROM latest, unnest(latest.passed) n WHERE n = t OR (right(n, length(t)) = t AND left(n, length(n) - length(t)) ~ '( > |::|\.|/)$')) AS passing
    FROM unnest(coalesce(p_targets, '{}')) t
  ), broken AS (
    SELECT n FROM latest, unnest(latest.failed) n
    WHERE NOT EXISTS (SELECT 1 FROM unnest(coalesce(p_targets, '{}')) t WHERE n = t OR (right(n, length(t)) = t AND left(n, length(n) - length(t)) ~ '( > |::|\.|/)$'))
      AND NOT coalesce(p_baseline->'failed' ? n, false)
  ), repaired AS (
    -- Red at the baseline and no longer failing (seen passing, where the runner names passes): what the work fixed.
    SELECT b FROM latest, jsonb_array_elements_text(coalesce(p_baseline->'failed', '[]')) b
    WHERE NOT (b = ANY (latest.failed)) AND (b = ANY (latest.passed) OR NOT latest.names_all)
  )
  SELECT jsonb_build_object(
    'fixed', coalesce((SELECT jsonb_agg(t) FROM targets, latest WHERE NOT failing AND (passing OR NOT latest.names_all)), '[]'),
    'stillFailing', coalesce((SELECT jsonb_agg(t) FROM targets WHERE failing), '[]'),
    'unseen', coalesce((SELECT jsonb_agg(t) FROM targets, latest WHERE NOT failing AND NOT passing AND latest.names_all), '[]'),
    'broken', coalesce((SELECT jsonb_agg(n) FROM broken), '[]'),
    'repaired', coalesce((SELECT jsonb_agg(b) FROM repaired), '[]')
  )
$function$
;

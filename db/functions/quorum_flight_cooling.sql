-- Which of p_tasks, subtasks of flight p_flight, the team's claim skips at p_now (DESIGN, flights): one
-- released by a run that did not finish it, until its cool-down passes, and one handed to the orchestrator to
-- re-plan, until the re-plan cancels it or the human, handed the goal, retries the flight (FlightRetried).
-- The releases are domain/flights/hand-back.ts's TaskReleased events; the one caller is the claim's search,
-- quorum_claim_next_tasks, which asks after it has locked the tasks it found: a release holds the task's lock
-- until it commits, so the answer read then cannot miss the release that made the task ready.
CREATE OR REPLACE FUNCTION public.quorum_flight_cooling(p_flight uuid, p_tasks uuid[], p_now timestamp with time zone)
 RETURNS uuid[]
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(array_agg(DISTINCT r.task_id), '{}') FROM events r
  WHERE r.kind = 'TaskReleased' AND r.task_id = ANY (p_tasks) AND r.data->>'flightId' = p_flight::text
    AND ((r.data->>'coolDownUntil')::timestamptz > p_now
      OR ((r.data->>'replan')::boolean
        AND NOT EXISTS (SELECT FROM events f WHERE f.kind = 'FlightRetried' AND f.data->>'flightId' = p_flight::text AND f.id > r.id)))
$function$
;

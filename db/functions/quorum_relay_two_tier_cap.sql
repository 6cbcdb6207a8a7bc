-- The two-tier cap while a human is present (DESIGN §5): max(6, ⌈μ + 2σ⌉) over the per-agent counts of
-- the room's last 100 closed rounds, the floor alone before 3 such rounds exist (μ and σ are then left
-- out). Over the figures the opening round keeps (quorum_relay_mark_round); quorum_post_gate_refusal
-- applies it and GateRejected keeps what it returns. One expression, so the planner inlines it: STABLE,
-- as jsonb_build_object is, since a function declared IMMUTABLE over a STABLE body is never inlined (it
-- was then planned afresh in every post that read it).
CREATE OR REPLACE FUNCTION public.quorum_relay_two_tier_cap(round_stats jsonb)
 RETURNS jsonb
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT CASE
    WHEN (round_stats->>'rounds')::int < (quorum_relay_limits()->>'twoTierMinRounds')::int
      OR round_stats->>'mean' IS NULL OR round_stats->>'stdDev' IS NULL THEN
      jsonb_build_object('cap', quorum_relay_limits()->'twoTierFloor', 'rounds', round_stats->'rounds', 'mean', NULL, 'stdDev', NULL)
    -- Rounded before the ceiling, so that float noise (6.0000000001) never adds a message.
    ELSE jsonb_build_object(
      'cap', greatest((quorum_relay_limits()->>'twoTierFloor')::int,
                      ceil(round(((round_stats->>'mean')::float8 + 2 * (round_stats->>'stdDev')::float8)::numeric, 9))::int),
      'rounds', round_stats->'rounds', 'mean', round_stats->'mean', 'stdDev', round_stats->'stdDev')
  END
$function$
;

-- The relay's gates (DESIGN §5), decided once, here: rate → duplicate → freshness → lapping or the
-- two-tier cap, over the facts quorum_post_message reads under the room lock and the sender's rate lock.
-- NULL admits the post. A refusal names its gate, its reason (the error code the sender gets) and the
-- figures the verdict used; GateRejected keeps them as they are (quorum_record_gate_rejection), and
-- server/relay/gate-refusal.ts words them. One expression with no FROM, so the planner inlines it into
-- the post (STABLE, not IMMUTABLE: two-tier's humanAt is formatted with to_char).
CREATE OR REPLACE FUNCTION public.quorum_post_gate_refusal(facts jsonb, direct boolean, presented boolean, now_ms double precision)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    -- rate: at most rateLimit messages in the rolling window; the oldest of them leaves it first, and then
    -- one more fits (never a retry of 0 ms)
    WHEN (facts->'rate'->>'sentInWindow')::int >= (quorum_relay_limits()->>'rateLimit')::int AND facts->'rate'->>'oldestMs' IS NOT NULL THEN
      jsonb_build_object('gate', 'rate', 'reason', 'rate_limited', 'figures', jsonb_build_object(
        'sentInWindow', facts->'rate'->'sentInWindow', 'limit', quorum_relay_limits()->'rateLimit', 'windowMs', quorum_relay_limits()->'rateWindowMs',
        'retryAfterMs', greatest(1, (facts->'rate'->>'oldestMs')::float8 + (quorum_relay_limits()->>'rateWindowMs')::float8 - now_ms)::bigint))
    -- duplicate: a byte-identical earlier body from the sender in the room
    WHEN facts->>'duplicateOfSeq' IS NOT NULL THEN
      jsonb_build_object('gate', 'duplicate', 'reason', 'duplicate', 'figures', jsonb_build_object('duplicateOfSeq', facts->'duplicateOfSeq'))
    -- freshness (broadcasts only): something unread from others, and no live unused hold token that covers it
    WHEN NOT direct AND (facts->>'unreadCount')::int <> 0 AND facts->>'latestUnreadSeq' IS NOT NULL
      AND NOT (presented
        AND facts->'holdToken'->>'id' IS NOT NULL
        AND NOT (facts->'holdToken'->>'used')::boolean
        AND (facts->'holdToken'->>'expiresAtMs')::float8 > now_ms
        AND (facts->>'latestUnreadSeq')::bigint <= (facts->'holdToken'->>'seq')::bigint) THEN
      jsonb_build_object('gate', 'freshness', 'reason', 'stale', 'figures', jsonb_build_object(
        'cursor', facts->'cursor', 'unreadCount', facts->'unreadCount', 'latestSeq', facts->'latestUnreadSeq',
        'tokenProblem', CASE
          WHEN NOT presented THEN NULL
          WHEN facts->'holdToken'->>'id' IS NULL THEN 'unknown'
          WHEN (facts->'holdToken'->>'used')::boolean THEN 'used'
          WHEN (facts->'holdToken'->>'expiresAtMs')::float8 <= now_ms THEN 'expired'
          ELSE 'newer_arrived'
        END))
    -- a human spoke within humanPresentMs: the two-tier cap, counting from that message
    WHEN (facts->'round'->>'humanAtMs')::float8 > now_ms - (quorum_relay_limits()->>'humanPresentMs')::float8 THEN
      CASE WHEN (facts->>'sent')::int + 1 > (quorum_relay_two_tier_cap(facts->'roundStats')->>'cap')::int THEN
        jsonb_build_object('gate', 'two_tier', 'reason', 'lapping', 'figures', quorum_relay_two_tier_cap(facts->'roundStats') || jsonb_build_object(
          'sent', facts->'sent', 'sinceSeq', facts->'round'->'humanSeq',
          'humanAt', to_char(to_timestamp((facts->'round'->>'humanAtMs')::float8 / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      END
    -- lapping, no human present: as many messages as there are agents speaking since the last human message
    WHEN (facts->>'sent')::int + 1 > (facts->>'otherSpeakers')::int + 1 THEN
      jsonb_build_object('gate', 'lapping', 'reason', 'lapping', 'figures', jsonb_build_object(
        'sent', facts->'sent', 'speakers', (facts->>'otherSpeakers')::int + 1, 'sinceSeq', coalesce(facts->'round'->'humanSeq', '0'::jsonb)))
  END
$function$
;

-- The relay's numbers (DESIGN §5), their one home: every rule that applies one is SQL, so each is read
-- here (quorum_post_gate_refusal, quorum_relay_two_tier_cap, quorum_post_message, quorum_post_messages,
-- quorum_record_gate_rejection, quorum_relay_mark_round). IMMUTABLE with no arguments: the planner folds
-- each read to a constant when a statement is planned, so a post pays nothing for them. The one number
-- only TypeScript applies, how many unread messages a stale refusal shows, lives beside that read
-- (UNREAD_SHOWN in server/relay/freshness.ts). Tests read them with `select quorum_relay_limits()`.
--   rateLimit, rateWindowMs   the rate floor: at most 30 messages per agent in a rolling minute, all rooms together
--   rateLock                  the advisory-lock namespace an agent's posts queue on (the others are TypeScript's:
--                             commitments, decisions and reminders 8451101–3, reservations 8451110–11)
--   humanPresentMs            a human is present in a room when a human message was posted there within 10 minutes
--   twoTierFloor, twoTierMinRounds, twoTierRounds
--                             the two-tier cap is max(6, ⌈μ + 2σ⌉) over the last 100 closed rounds, once 3 exist
--   holdTokenTtlMs            a stale refusal's hold token lives 120 s and works once
--   digestCap                 a focusing agent's digest holds at most 50 messages; the oldest are dropped first
CREATE OR REPLACE FUNCTION public.quorum_relay_limits()
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT '{"rateLimit": 30, "rateWindowMs": 60000, "rateLock": 8451120, "humanPresentMs": 600000,
           "twoTierFloor": 6, "twoTierMinRounds": 3, "twoTierRounds": 100, "holdTokenTtlMs": 120000, "digestCap": 50}'::jsonb
$function$
;

-- A round (DESIGN §5) opens at each human message, and at each of the system principal's, which
-- speaks only for a human or for the hub's rules: without that, a flight room whose only non-agent
-- voice is the system's REQUEST would count every agent message since the room began. Opening a round
-- closes the previous one: each agent's count in it goes to round_counts, and the new round's row keeps
-- μ, σ and how many of the last 100 closed rounds there are (the two-tier cap's figures; twoTierRounds
-- in quorum_relay_limits), so a gated post reads them with the round instead of up to 800 counts, which
-- were most of its facts read (migration 0025). Trigger on messages (migration 0007).
CREATE OR REPLACE FUNCTION public.quorum_relay_mark_round()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  previous room_rounds%ROWTYPE;
  next_n integer := 1;
  stats record;
BEGIN
  IF (SELECT kind FROM principals WHERE id = NEW.sender_id) NOT IN ('human', 'system') THEN
    RETURN NULL;
  END IF;
  SELECT * INTO previous FROM room_rounds WHERE room = NEW.room ORDER BY n DESC LIMIT 1;
  IF FOUND THEN
    INSERT INTO round_counts (room, n, agent_id, count)
      SELECT NEW.room, previous.n, m.sender_id, count(*)
      FROM messages m JOIN principals p ON p.id = m.sender_id
      WHERE m.room = NEW.room AND m.seq > previous.human_seq AND m.seq < NEW.seq AND p.kind = 'agent'
      GROUP BY m.sender_id;
    next_n := previous.n + 1;
  END IF;
  SELECT count(DISTINCT rc.n)::int AS rounds, avg(rc.count)::float8 AS mean, stddev_pop(rc.count)::float8 AS std_dev INTO stats
    FROM round_counts rc
    WHERE rc.room = NEW.room
      AND rc.n IN (SELECT DISTINCT r.n FROM round_counts r WHERE r.room = NEW.room ORDER BY r.n DESC LIMIT (quorum_relay_limits()->>'twoTierRounds')::int);
  INSERT INTO room_rounds (room, n, human_seq, human_at, prior_rounds, prior_mean, prior_std_dev)
    VALUES (NEW.room, next_n, NEW.seq, NEW.created_at, stats.rounds, stats.mean, stats.std_dev);
  RETURN NULL;
END $function$
;

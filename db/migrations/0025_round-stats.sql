-- The two-tier cap (DESIGN §5: max(6, ⌈μ + 2σ⌉) over the per-agent counts of the room's last 100 closed
-- rounds in which an agent spoke) needs μ, σ and how many rounds there were. round_counts change only when
-- a round closes, which is when the next one opens, so the trigger that opens a round computes the three
-- figures once and keeps them on the round's row; every gated post until the next human message reads them
-- with the round it already reads. Before, each post sent every count of up to 100 rounds (up to 8 agents
-- each: 800 rows) as JSON under the room lock: 0.42 ms of a 0.62 ms facts statement in a room with 24
-- rounds (auto_explain, embedded PostgreSQL 18, 2026-11-30). The window (100) is TWO_TIER_ROUNDS in
-- server/relay/limits.ts; server/relay/gates.test.ts checks that the two agree.
ALTER TABLE "room_rounds" ADD COLUMN "prior_rounds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "room_rounds" ADD COLUMN "prior_mean" double precision;--> statement-breakpoint
ALTER TABLE "room_rounds" ADD COLUMN "prior_std_dev" double precision;--> statement-breakpoint
CREATE OR REPLACE FUNCTION quorum_relay_mark_round() RETURNS trigger LANGUAGE plpgsql AS $$
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
      AND rc.n IN (SELECT DISTINCT r.n FROM round_counts r WHERE r.room = NEW.room ORDER BY r.n DESC LIMIT 100);
  INSERT INTO room_rounds (room, n, human_seq, human_at, prior_rounds, prior_mean, prior_std_dev)
    VALUES (NEW.room, next_n, NEW.seq, NEW.created_at, stats.rounds, stats.mean, stats.std_dev);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Each room's open round gets the figures its posts will read.
UPDATE room_rounds r SET prior_rounds = s.rounds, prior_mean = s.mean, prior_std_dev = s.std_dev
FROM (
  SELECT last.room, last.n, count(DISTINCT rc.n)::int AS rounds, avg(rc.count)::float8 AS mean, stddev_pop(rc.count)::float8 AS std_dev
  FROM (SELECT room, max(n) AS n FROM room_rounds GROUP BY room) last
  JOIN round_counts rc ON rc.room = last.room
    AND rc.n IN (SELECT DISTINCT x.n FROM round_counts x WHERE x.room = last.room ORDER BY x.n DESC LIMIT 100)
  GROUP BY last.room, last.n
) s
WHERE r.room = s.room AND r.n = s.n;

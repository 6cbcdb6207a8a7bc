-- Rounds of a room (DESIGN §5): every human message opens round n and closes round n-1, whose
-- per-agent message counts are stored once so the two-tier cap reads them instead of rescanning.
-- A trigger keeps them, so no writer of messages can forget; posting is serialised per room.
CREATE FUNCTION quorum_relay_mark_round() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous room_rounds%ROWTYPE;
  next_n integer := 1;
BEGIN
  IF (SELECT kind FROM principals WHERE id = NEW.sender_id) IS DISTINCT FROM 'human' THEN
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
  INSERT INTO room_rounds (room, n, human_seq, human_at) VALUES (NEW.room, next_n, NEW.seq, NEW.created_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_mark_round AFTER INSERT ON "messages"
  FOR EACH ROW EXECUTE FUNCTION quorum_relay_mark_round();
--> statement-breakpoint
-- Rooms that already have messages get their rounds from history.
INSERT INTO room_rounds (room, n, human_seq, human_at)
  SELECT m.room, row_number() OVER (PARTITION BY m.room ORDER BY m.seq), m.seq, m.created_at
  FROM messages m JOIN principals p ON p.id = m.sender_id
  WHERE p.kind = 'human';
--> statement-breakpoint
INSERT INTO round_counts (room, n, agent_id, count)
  SELECT m.room, r.n, m.sender_id, count(*)
  FROM messages m
  JOIN principals p ON p.id = m.sender_id AND p.kind = 'agent'
  JOIN room_rounds r ON r.room = m.room AND r.human_seq < m.seq
  JOIN room_rounds nxt ON nxt.room = m.room AND nxt.n = r.n + 1 AND m.seq < nxt.human_seq
  GROUP BY m.room, r.n, m.sender_id;

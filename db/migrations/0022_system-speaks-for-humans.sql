-- The system principal speaks for humans (a flight a human started, a human's verdict) and for the hub's
-- rules (a stalled agent, an expired lease); it never speaks for itself. Its messages now open a round
-- as a human's do, so they reset the loop counters: a flight room whose only non-agent voice is the
-- system's REQUEST would otherwise count every agent message since the room began, and the team would be
-- lapped partway through its first flight. (When a human posted the flight's REQUEST, it reset them.)
CREATE OR REPLACE FUNCTION quorum_relay_mark_round() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous room_rounds%ROWTYPE;
  next_n integer := 1;
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
  INSERT INTO room_rounds (room, n, human_seq, human_at) VALUES (NEW.room, next_n, NEW.seq, NEW.created_at);
  RETURN NULL;
END $$;

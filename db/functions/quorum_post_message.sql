-- A post in one autocommitted call (server/relay/post-message.ts calls it): the gates decide an agent's
-- post here (quorum_post_gate_refusal) and a refusal is recorded here too (quorum_record_gate_rejection).
CREATE OR REPLACE FUNCTION public.quorum_post_message(p_room text, p_sender uuid, p_gated boolean, p_body text, p_to_name text, p_to_uuid uuid, p_mention_names text[], p_token_hash text, p_presented boolean, p_performative text, p_task_id uuid, p_payload jsonb, p_nudge boolean, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_last bigint;
  v_recipient jsonb;
  v_to uuid;
  v_mentions uuid[];
  v_facts jsonb;
  v_refusal jsonb;
  v_seq bigint;
  v_held bigint;
  v_token uuid;
  v_id bigint;
  v_windows uuid[];
  v_held_agents uuid[];
  v_now_ms float8 := floor(extract(epoch FROM p_now) * 1000);
BEGIN
  -- Row-locking the room serialises posting per room: seq stays gap-free and the gates see a settled room.
  -- Each statement below takes a fresh snapshot (READ COMMITTED), so the facts include the post we waited for.
  SELECT last_seq INTO v_last FROM rooms WHERE name = p_room FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('lastSeq', NULL);
  END IF;
  SELECT jsonb_build_object('id', id, 'name', name), id INTO v_recipient, v_to
    FROM principals WHERE name = p_to_name OR id = p_to_uuid LIMIT 1;
  SELECT coalesce(array_agg(id), '{}'::uuid[]) INTO v_mentions FROM principals WHERE name = ANY (p_mention_names);
  IF p_to_name IS NOT NULL AND v_to IS NULL THEN
    RETURN jsonb_build_object('lastSeq', v_last, 'recipient', NULL, 'mentions', to_jsonb(v_mentions));
  END IF;
  IF p_gated THEN
    -- The rate floor counts an agent's messages in every room: its posts queue on a lock of their own,
    -- always taken after the room's, and by nothing else that then waits for a room (no cycle), so two
    -- rooms cannot both slip under the limit.
    PERFORM pg_advisory_xact_lock((quorum_relay_limits()->>'rateLock')::int, hashtext(p_sender::text));
    -- Every read walks an index: rate (sender_id, created_at), duplicate (room, sender_id, md5(body)),
    -- sent (room, sender_id, seq), unread and speakers (room, seq), the round (with its cap's figures) by key.
    WITH cur AS (
      SELECT coalesce((SELECT seq FROM seen_cursors WHERE principal_id = p_sender AND room = p_room), 0)::bigint AS seq
    ), last_round AS (
      SELECT human_seq, human_at, prior_rounds, prior_mean, prior_std_dev FROM room_rounds WHERE room = p_room ORDER BY n DESC LIMIT 1
    ), since AS (
      SELECT coalesce((SELECT human_seq FROM last_round), 0)::bigint AS seq
    ), rate AS (
      SELECT count(*)::int AS n, floor(extract(epoch FROM min(created_at)) * 1000)::float8 AS oldest_ms
      FROM (SELECT created_at FROM messages
            WHERE sender_id = p_sender AND created_at > p_now - make_interval(secs => (quorum_relay_limits()->>'rateWindowMs')::float8 / 1000)
            ORDER BY created_at DESC LIMIT (quorum_relay_limits()->>'rateLimit')::int) w
    ), unread AS (
      SELECT count(*)::int AS n, max(seq) AS latest FROM messages
      WHERE p_to_name IS NULL AND room = p_room AND seq > (SELECT seq FROM cur)
        AND sender_id <> p_sender AND (to_id IS NULL OR to_id = p_sender)
    )
    SELECT jsonb_build_object(
      'rate', jsonb_build_object('sentInWindow', rate.n, 'oldestMs', rate.oldest_ms),
      'duplicateOfSeq', (SELECT seq FROM messages WHERE room = p_room AND sender_id = p_sender AND md5(body) = md5(p_body) AND body = p_body LIMIT 1),
      'cursor', (SELECT seq FROM cur),
      'unreadCount', unread.n,
      'latestUnreadSeq', unread.latest,
      'holdToken', (SELECT jsonb_build_object('id', id, 'seq', seq, 'used', used_at IS NOT NULL, 'expiresAtMs', floor(extract(epoch FROM expires_at) * 1000))
                      FROM hold_tokens WHERE token_hash = p_token_hash AND principal_id = p_sender AND room = p_room),
      'round', (SELECT jsonb_build_object('humanSeq', human_seq, 'humanAtMs', floor(extract(epoch FROM human_at) * 1000))
                  FROM last_round WHERE human_seq IS NOT NULL AND human_at IS NOT NULL),
      'sent', (SELECT count(*)::int FROM messages WHERE room = p_room AND sender_id = p_sender AND seq > (SELECT seq FROM since)),
      'otherSpeakers', (SELECT count(DISTINCT m.sender_id)::int FROM messages m JOIN principals p ON p.id = m.sender_id
                          WHERE m.room = p_room AND m.seq > (SELECT seq FROM since) AND p.kind = 'agent' AND m.sender_id <> p_sender),
      'roundStats', jsonb_build_object('rounds', coalesce((SELECT prior_rounds FROM last_round), 0),
                                       'mean', (SELECT prior_mean FROM last_round), 'stdDev', (SELECT prior_std_dev FROM last_round))
    ) INTO v_facts FROM rate, unread;
    v_refusal := quorum_post_gate_refusal(v_facts, v_to IS NOT NULL, p_presented, v_now_ms);
    IF v_refusal IS NOT NULL THEN
      -- Refused: no message, only the refusal's record (and a stale one's hold token), in this same call.
      RETURN jsonb_build_object('lastSeq', v_last, 'recipient', v_recipient, 'mentions', to_jsonb(v_mentions),
                                'refusal', quorum_record_gate_rejection(p_room, p_sender, v_to, p_body, p_task_id, v_refusal, p_now), 'message', NULL);
    END IF;
    IF v_to IS NULL AND (v_facts->>'unreadCount')::int > 0 THEN
      -- A broadcast over unread messages passed on its hold token: the write spends it.
      v_token := (v_facts->'holdToken'->>'id')::uuid;
      v_held := (v_facts->'holdToken'->>'seq')::bigint;
    END IF;
  END IF;
  v_seq := v_last + 1;
  -- The focus windows this message waits in, locked in id order so digest writes serialise per agent across
  -- rooms and the cap holds exactly. A critical-path nudge passes every window; an @mention passes the
  -- mentioned agent's. Read before the write so that, when no agent is focusing (the common case), the
  -- write carries no digest steps at all.
  SELECT array_agg(id ORDER BY id), array_agg(agent_id ORDER BY id) INTO v_windows, v_held_agents
  FROM (SELECT id, agent_id FROM focus_windows
        WHERE NOT p_nudge AND closed_at IS NULL AND agent_id <> p_sender
          AND (v_to IS NULL OR agent_id = v_to) AND NOT (agent_id = ANY (v_mentions))
        ORDER BY id FOR UPDATE) w;
  WITH bump AS (
    UPDATE rooms SET last_seq = v_seq WHERE name = p_room
  ), msg AS (
    INSERT INTO messages (room, seq, sender_id, to_id, performative, task_id, body, payload, mentions, held_seq, created_at)
    VALUES (p_room, v_seq, p_sender, v_to, p_performative, p_task_id, p_body, p_payload, v_mentions, v_held, p_now)
    RETURNING id
  ), spent AS (
    -- The token is bound to this room, whose lock we hold: no other post can spend it between check and spend.
    UPDATE hold_tokens SET used_at = p_now WHERE id = v_token AND used_at IS NULL
  ), sent_event AS (
    INSERT INTO events (kind, actor, task_id, t, data)
    SELECT 'MessageSent', p_sender, p_task_id, p_now,
           jsonb_build_object('room', p_room, 'seq', v_seq, 'to', v_to, 'performative', p_performative, 'body', p_body,
                              'mentions', to_jsonb(v_mentions), 'heldSeq', v_held, 'messageId', msg.id)
           || CASE WHEN p_nudge THEN '{"nudge": true}'::jsonb ELSE '{}'::jsonb END
    FROM msg
    RETURNING id
  ), delivery AS (
    SELECT coalesce((SELECT jsonb_agg(id) FROM principals
                     WHERE kind = 'agent' AND id <> p_sender AND (v_to IS NULL OR id = v_to)
                       AND id <> ALL (coalesce(v_held_agents, '{}'::uuid[]))), '[]'::jsonb) AS recipients,
           coalesce(to_jsonb(v_held_agents), '[]'::jsonb) AS held
  ), delivered AS (
    INSERT INTO events (kind, actor, task_id, t, data)
    SELECT 'MessageDelivered', p_sender, p_task_id, p_now,
           jsonb_build_object('via', 'inbox', 'room', p_room, 'seq', v_seq, 'messageId', msg.id, 'performative', p_performative,
                              'recipients', delivery.recipients, 'held', delivery.held, 'nudge', p_nudge)
    -- Reading sent_event orders the inserts: MessageDelivered always follows its MessageSent in the journal.
    FROM msg, delivery, sent_event
    WHERE jsonb_array_length(delivery.recipients) > 0 OR jsonb_array_length(delivery.held) > 0
  )
  SELECT id INTO v_id FROM msg;
  IF v_windows IS NOT NULL THEN
    WITH queued AS (
      INSERT INTO digest_entries (window_id, agent_id, message_id, room, seq, queued_at)
      SELECT w.id, w.agent_id, v_id, p_room, v_seq, p_now FROM unnest(v_windows, v_held_agents) AS w(id, agent_id)
    ), dropped AS (
      -- The new entry is not visible here: keep the newest digestCap - 1 of the others.
      UPDATE digest_entries d SET state = 'dropped', settled_at = p_now
      FROM (SELECT agent_id, message_id, row_number() OVER (PARTITION BY window_id ORDER BY message_id DESC) AS rn
            FROM digest_entries WHERE window_id = ANY (v_windows) AND state = 'queued') r
      WHERE d.agent_id = r.agent_id AND d.message_id = r.message_id AND r.rn >= (quorum_relay_limits()->>'digestCap')::int AND d.state = 'queued'
      RETURNING d.window_id
    )
    UPDATE focus_windows f SET dropped = f.dropped + c.n
    FROM (SELECT window_id, count(*)::int AS n FROM dropped GROUP BY window_id) c WHERE f.id = c.window_id;
  END IF;
  RETURN jsonb_build_object('lastSeq', v_last, 'recipient', v_recipient, 'mentions', to_jsonb(v_mentions),
                            'message', jsonb_build_object('id', v_id, 'seq', v_seq, 'heldSeq', v_held));
END $function$
;

-- A refused post's record, written by the post's own call (quorum_post_message, on the lone and the
-- batched path alike): GateRejected, once, with the gate, reason and figures quorum_post_gate_refusal
-- decided (v 2: the words are not stored; server/relay/gate-refusal.ts words them for every reader), and
-- for a stale refusal a fresh hold token bound to the latest unread seq. The token's text is returned
-- once, in the refusal the sender gets, and stored only as its hash: sha256 hex, as hashSecret
-- (server/principals/secrets.ts) hashes the token a later post presents.
CREATE OR REPLACE FUNCTION public.quorum_record_gate_rejection(p_room text, p_sender uuid, p_to uuid, p_body text, p_task_id uuid, p_refusal jsonb, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_token text;
  -- Enough of the refused body for a human to recognise a loop in the gate strip (never rendered as HTML).
  v_preview text := left(p_body, 200);
BEGIN
  IF p_refusal->>'gate' = 'freshness' THEN
    -- 256 bits from three of the server's strong random UUIDs (366 random bits), as newSecret("hold") words them:
    -- hold_ and 43 characters of base64url.
    v_token := 'hold_' || rtrim(translate(encode(sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())),
                                                 'base64'), '+/', '-_'), '=');
    INSERT INTO hold_tokens (token_hash, principal_id, room, seq, issued_at, expires_at)
    VALUES (encode(sha256(convert_to(v_token, 'UTF8')), 'hex'), p_sender, p_room, (p_refusal->'figures'->>'latestSeq')::bigint, p_now,
            p_now + make_interval(secs => (quorum_relay_limits()->>'holdTokenTtlMs')::float8 / 1000));
  END IF;
  IF v_preview ~ E'[\\U00010000-\\U0010FFFF]' THEN
    -- The preview has always held 200 UTF-16 units (JavaScript's slice): a character past the BMP counts two.
    -- One that would straddle the end is left out (JavaScript kept half of it, which the journal refused).
    SELECT coalesce(string_agg(c, '' ORDER BY i), '') INTO v_preview
    FROM (SELECT c, i, sum(CASE WHEN ascii(c) > 65535 THEN 2 ELSE 1 END) OVER (ORDER BY i) AS units
          FROM unnest(string_to_array(v_preview, NULL)) WITH ORDINALITY AS x(c, i)) w
    WHERE units <= 200;
  END IF;
  INSERT INTO events (kind, v, actor, task_id, t, data)
  SELECT 'GateRejected', 2, p_sender, p_task_id, p_now,
         jsonb_build_object('room', p_room, 'gate', p_refusal->'gate', 'reason', p_refusal->'reason', 'sender', p_sender, 'senderName', p.name,
                            'to', p_to, 'bodyPreview', v_preview, 'figures', p_refusal->'figures')
  FROM principals p WHERE p.id = p_sender;
  RETURN p_refusal || jsonb_build_object('holdToken', v_token);
END $function$
;

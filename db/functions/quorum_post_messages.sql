-- Posts to one room that queued in one process, in one transaction (server/relay/post-combiner.ts): each
-- is decided, and a refusal recorded, by quorum_post_message, in queue order, seeing the ones before it.
CREATE OR REPLACE FUNCTION public.quorum_post_messages(p_room text, p_posts jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_key int;
  v_post jsonb;
  v_outcomes jsonb := '[]'::jsonb;
BEGIN
  PERFORM 1 FROM rooms WHERE name = p_room FOR UPDATE;
  FOR v_key IN
    SELECT DISTINCT hashtext(p->>'sender') FROM jsonb_array_elements(p_posts) p WHERE (p->>'gated')::boolean ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock((quorum_relay_limits()->>'rateLock')::int, v_key);
  END LOOP;
  PERFORM 1 FROM focus_windows WHERE closed_at IS NULL ORDER BY id FOR UPDATE;
  FOR v_post IN SELECT value FROM jsonb_array_elements(p_posts) WITH ORDINALITY ORDER BY ordinality LOOP
    v_outcomes := v_outcomes || jsonb_build_array(quorum_post_message(
      p_room, (v_post->>'sender')::uuid, (v_post->>'gated')::boolean, v_post->>'body',
      v_post->>'toName', (v_post->>'toUuid')::uuid, ARRAY(SELECT jsonb_array_elements_text(v_post->'mentions')),
      v_post->>'tokenHash', (v_post->>'presented')::boolean, v_post->>'performative', (v_post->>'taskId')::uuid,
      CASE WHEN jsonb_typeof(v_post->'payload') = 'object' THEN v_post->'payload' END, (v_post->>'nudge')::boolean,
      (v_post->>'now')::timestamptz));
  END LOOP;
  RETURN v_outcomes;
END $function$
;

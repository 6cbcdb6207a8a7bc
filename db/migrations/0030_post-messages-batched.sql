-- Posts to one room that queue in one process behind the one in flight go in as one transaction: one
-- room lock, one commit (one WAL flush) for the lot. Each post is still quorum_post_message, called in turn
-- in queue order, so each sees the ones before it (same transaction, later command): seq stays gap-free,
-- every gate reads the same facts it would have read one commit later, and of N identical posts one passes.
--
-- Why: in a hot room a post's room lock was held from its reads through its commit's WAL flush, so posts
-- queued for the flush one by one. Numbers in server/relay/post-combiner.ts, where the queue lives.
--
-- Locks, in the order every post takes them (the room, then rate locks, then focus windows by id): a batch
-- holds several senders' rate locks and several posts' windows at once, so it takes all of them up front,
-- rate locks sorted by key and every open window in id order. A batch then never waits while holding a
-- later lock, and two batches cannot deadlock on senders or windows taken in opposite orders.
CREATE OR REPLACE FUNCTION quorum_post_messages(p_room text, p_posts jsonb, p_limits jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_key int;
  v_post jsonb;
  v_outcomes jsonb := '[]'::jsonb;
BEGIN
  PERFORM 1 FROM rooms WHERE name = p_room FOR UPDATE;
  FOR v_key IN
    SELECT DISTINCT hashtext(p->>'sender') FROM jsonb_array_elements(p_posts) p WHERE (p->>'gated')::boolean ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock((p_limits->>'rateLock')::int, v_key);
  END LOOP;
  PERFORM 1 FROM focus_windows WHERE closed_at IS NULL ORDER BY id FOR UPDATE;
  FOR v_post IN SELECT value FROM jsonb_array_elements(p_posts) WITH ORDINALITY ORDER BY ordinality LOOP
    v_outcomes := v_outcomes || jsonb_build_array(quorum_post_message(
      p_room, (v_post->>'sender')::uuid, (v_post->>'gated')::boolean, v_post->>'body',
      v_post->>'toName', (v_post->>'toUuid')::uuid, ARRAY(SELECT jsonb_array_elements_text(v_post->'mentions')),
      v_post->>'tokenHash', (v_post->>'presented')::boolean, v_post->>'performative', (v_post->>'taskId')::uuid,
      CASE WHEN jsonb_typeof(v_post->'payload') = 'object' THEN v_post->'payload' END, (v_post->>'nudge')::boolean,
      (v_post->>'now')::timestamptz, p_limits));
  END LOOP;
  RETURN v_outcomes;
END $$;

-- The relay's one-way rules, held by the database so that no second writer can break them:
-- a seen-cursor never moves back, a hold token is spent at most once, a digest entry settles once.
CREATE FUNCTION quorum_relay_cursor_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq < OLD.seq THEN
    RAISE EXCEPTION 'a seen-cursor never moves back (% -> %)', OLD.seq, NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER seen_cursors_forward BEFORE UPDATE ON "seen_cursors"
  FOR EACH ROW EXECUTE FUNCTION quorum_relay_cursor_forward();
--> statement-breakpoint
CREATE FUNCTION quorum_relay_token_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.used_at IS NOT NULL OR ROW(NEW.token_hash, NEW.principal_id, NEW.room, NEW.seq, NEW.issued_at, NEW.expires_at)
      IS DISTINCT FROM ROW(OLD.token_hash, OLD.principal_id, OLD.room, OLD.seq, OLD.issued_at, OLD.expires_at) THEN
    RAISE EXCEPTION 'a hold token is spent once and never rebound' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER hold_tokens_once BEFORE UPDATE ON "hold_tokens"
  FOR EACH ROW EXECUTE FUNCTION quorum_relay_token_once();
--> statement-breakpoint
CREATE FUNCTION quorum_relay_digest_settles_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state <> 'queued' AND NEW.state IS DISTINCT FROM OLD.state THEN
    RAISE EXCEPTION 'a digest entry settles once (% -> %)', OLD.state, NEW.state USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER digest_entries_settle_once BEFORE UPDATE ON "digest_entries"
  FOR EACH ROW EXECUTE FUNCTION quorum_relay_digest_settles_once();

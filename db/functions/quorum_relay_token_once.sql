-- A hold token is spent at most once (DESIGN §5). Trigger on hold_tokens (migration 0012).
CREATE OR REPLACE FUNCTION public.quorum_relay_token_once()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF OLD.used_at IS NOT NULL OR ROW(NEW.token_hash, NEW.principal_id, NEW.room, NEW.seq, NEW.issued_at, NEW.expires_at)
      IS DISTINCT FROM ROW(OLD.token_hash, OLD.principal_id, OLD.room, OLD.seq, OLD.issued_at, OLD.expires_at) THEN
    RAISE EXCEPTION 'a hold token is spent once and never rebound' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$
;

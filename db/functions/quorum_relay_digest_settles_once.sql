-- A digest entry settles once: queued, then delivered or dropped, never back. Trigger on
-- digest_entries (migration 0012).
CREATE OR REPLACE FUNCTION public.quorum_relay_digest_settles_once()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF OLD.state <> 'queued' AND NEW.state IS DISTINCT FROM OLD.state THEN
    RAISE EXCEPTION 'a digest entry settles once (% -> %)', OLD.state, NEW.state USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$
;

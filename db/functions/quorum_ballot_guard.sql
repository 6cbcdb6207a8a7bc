-- Ballots (DESIGN §7): a ballot is cast only on an open decision, for one of its options, and once cast
-- it stands. Trigger on ballots (migration 0004).
CREATE OR REPLACE FUNCTION public.quorum_ballot_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  d record;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'a cast ballot stands: % on ballots is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
  END IF;
  SELECT status, options INTO d FROM decisions WHERE id = NEW.decision_id;
  IF d.status IS DISTINCT FROM 'open' THEN
    RAISE EXCEPTION 'decision % is not open for ballots', NEW.decision_id USING ERRCODE = 'check_violation';
  END IF;
  IF NOT (NEW.option = ANY (d.options)) THEN
    RAISE EXCEPTION 'option % is not one of the decision''s options', NEW.option USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$
;

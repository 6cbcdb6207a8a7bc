-- A seen-cursor only moves forward (DESIGN §5: advanced only by an explicit ack). Trigger on
-- seen_cursors (migration 0012).
CREATE OR REPLACE FUNCTION public.quorum_relay_cursor_forward()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.seq < OLD.seq THEN
    RAISE EXCEPTION 'a seen-cursor never moves back (% -> %)', OLD.seq, NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$
;

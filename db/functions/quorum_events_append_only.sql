-- The journal is append-only (DESIGN §4): an UPDATE, DELETE or TRUNCATE of events raises. Triggers
-- events_append_only and events_no_truncate (migration 0001).
CREATE OR REPLACE FUNCTION public.quorum_events_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'the journal is append-only: % on events is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $function$
;

-- Which kinds the journal's search indexes: the ones that carry text, not the bookkeeping kinds whose
-- strings are only ids, times, room names and fixed words (delivery receipts, cursors, focus windows,
-- claims, leases). Those are the hot paths' second events, and indexing them made each insert several times
-- dearer (migration 0024 has the measurements). Readers filter them by kind instead.
CREATE OR REPLACE FUNCTION public.quorum_event_searchable(kind text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT kind <> ALL (ARRAY[
    'MessageDelivered', 'CursorAdvanced', 'FocusWindowOpened', 'FocusWindowClosed', 'DigestFlushed',
    'TaskClaimed', 'LeaseRenewed', 'LeaseExpired', 'AgentKeyIssued', 'HumanSignedIn', 'SessionEnded'
  ]::text[])
$function$
;

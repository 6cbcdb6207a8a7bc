-- The commit-safe horizon of journal reads: the oldest transaction still in flight in this database.
-- A snapshot's xmin is cluster-wide, so a long transaction in another database on a shared server would
-- hold every reader back; transactions seen running in another database are skipped (they cannot write
-- here), anything not positively identified still counts, so the horizon errs low, never past an event
-- that may still commit. Read by journal pages, long-polls, the announcer and the bill's snapshot.
CREATE OR REPLACE FUNCTION public.quorum_settle_horizon()
 RETURNS xid8
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(min(x), pg_snapshot_xmax(pg_current_snapshot()))
  FROM pg_snapshot_xip(pg_current_snapshot()) AS x
  WHERE (x::text::numeric % 4294967296)::bigint NOT IN (
    SELECT a.backend_xid::text::bigint FROM pg_stat_get_activity(NULL) AS a
    WHERE a.backend_xid IS NOT NULL
      AND a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())
  )
$function$
;

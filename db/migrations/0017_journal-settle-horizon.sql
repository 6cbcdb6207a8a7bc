-- Commit-safe reads (journal pages, long-polls, the bill snapshot) take every event whose transaction
-- is older than the oldest one still in flight. The snapshot's xmin is cluster-wide, so a long
-- transaction in another database on a shared server would hold every reader back for its whole
-- length. This horizon skips transactions seen running in another database (they cannot write
-- here); anything not positively identified (finished meanwhile, prepared) still counts, so the
-- horizon can only err low, never past an event that may still commit.
CREATE FUNCTION quorum_settle_horizon() RETURNS xid8
LANGUAGE sql STABLE AS $$
  SELECT coalesce(min(x), pg_snapshot_xmax(pg_current_snapshot()))
  FROM pg_snapshot_xip(pg_current_snapshot()) AS x
  WHERE (x::text::numeric % 4294967296)::bigint NOT IN (
    SELECT a.backend_xid::text::bigint FROM pg_stat_get_activity(NULL) AS a
    WHERE a.backend_xid IS NOT NULL
      AND a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())
  )
$$;

-- Makes the journal's partition for one month exist (DESIGN §4): events_YYYY_MM holds the events whose `t`
-- falls in that month, UTC. Rows of the month already in events_default (written under a clock no
-- partition covered yet) move into it in the same transaction, so no event is lost or doubled, and the
-- webhook outbox does not fire again (they are copied into a table that is not yet a partition). A month
-- that is archived (journal_archives) is left to `quorum journal restore`.
--
-- SECURITY DEFINER, so the app's role, which owns nothing and may only select and insert on the journal,
-- can ask for this one kind of table and nothing else: from the current month to 6 months ahead, or a
-- month whose rows wait in the default. The table's owner may ask for any month (migration 0037, the
-- archive). Only the owner holds rights on a partition: the app reaches the journal through `events`.
-- Called by the partitions sweeper (server/journal/partitions.ts), the archive and migration 0037.
-- Returns 'exists', 'archived', 'created' or 'moved <n>'.
CREATE OR REPLACE FUNCTION public.quorum_journal_partition(p_month date)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path = public, pg_temp
AS $function$
DECLARE
  lo timestamptz;
  hi timestamptz;
  part text := 'events_' || to_char(p_month, 'YYYY_MM');
  this_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  moved bigint := 0;
  grantee oid;
  ix record;
BEGIN
  IF p_month IS NULL OR extract(day FROM p_month) <> 1 THEN
    RAISE EXCEPTION 'a journal partition starts on the first of a month, not %', p_month USING ERRCODE = 'invalid_parameter_value';
  END IF;
  lo := p_month::timestamp AT TIME ZONE 'UTC';
  hi := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
  -- One maker at a time: the sweepers of several instances, an archive, a restore.
  PERFORM pg_advisory_xact_lock(hashtext('quorum:journal-partitions'));
  IF to_regclass(part) IS NOT NULL THEN
    RETURN 'exists';
  END IF;
  IF EXISTS (SELECT 1 FROM journal_archives a WHERE a.month = p_month) THEN
    RETURN 'archived';
  END IF;
  IF NOT pg_has_role(session_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = 'events'::regclass), 'USAGE')
     AND NOT (p_month >= this_month AND p_month <= this_month + interval '6 months')
     AND NOT EXISTS (SELECT 1 FROM events_default d WHERE d.t >= lo AND d.t < hi) THEN
    RAISE EXCEPTION 'the journal''s partitions are made from this month to 6 months ahead, not for %', p_month USING ERRCODE = 'insufficient_privilege';
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE events INCLUDING DEFAULTS)', part);
  -- The bounds as a constraint first: ATTACH then trusts them instead of scanning the table again.
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (t >= %L AND t < %L)', part, part || '_month', lo, hi);
  -- Writers of this month wait while its rows leave the default; the rest of the journal goes on.
  LOCK TABLE events_default IN SHARE ROW EXCLUSIVE MODE;
  EXECUTE format('INSERT INTO %I SELECT * FROM events_default WHERE t >= $1 AND t < $2', part) USING lo, hi;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
    -- The rows were copied above; the append-only trigger steps aside for this one move, in this transaction.
    ALTER TABLE events_default DISABLE TRIGGER events_append_only;
    DELETE FROM events_default WHERE t >= lo AND t < hi;
    ALTER TABLE events_default ENABLE TRIGGER events_append_only;
  END IF;
  EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', part, part || '_month');
  -- Each of its indexes is named after the journal's own (events_2026_11_settled_idx for events_settled_idx).
  FOR ix IN
    SELECT c.relname AS name, p.relname AS parent FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_inherits h ON h.inhrelid = i.indexrelid JOIN pg_class p ON p.oid = h.inhparent
    WHERE i.indrelid = part::regclass AND c.relname <> part || substr(p.relname, 7)
  LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.name, part || substr(ix.parent, 7));
  END LOOP;
  FOR grantee IN
    SELECT DISTINCT a.grantee FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = part::regclass AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('REVOKE ALL ON %I FROM %s', part, CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE grantee::regrole::text END);
  END LOOP;
  RETURN CASE WHEN moved > 0 THEN 'moved ' || moved ELSE 'created' END;
END $function$
;

-- The journal is partitioned by month of `t`, UTC (DESIGN §4), so that old months can be archived to files
-- and dropped whole (`quorum journal archive`) instead of the journal only growing. The existing journal is
-- converted in place: set aside, a partitioned `events` made with the same columns, sequence and privileges,
-- one partition per month that holds events and the current month with the next (the partitions sweeper keeps
-- ahead from then on) and a default for a `t` outside them all, every row copied in commit-safe order
-- before the triggers exist (the webhook outbox must not fire again), then the indexes and triggers remade.
-- A partitioned table's unique constraints must hold its partition key: the primary key is (id, t), and
-- id stays unique because events_id_seq alone hands ids out (restore checks the ids it brings back).
CREATE TABLE "journal_archived_debits" (
	"month" date NOT NULL,
	"budget_id" text NOT NULL,
	"model" text NOT NULL,
	"nearest" boolean NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "journal_archived_debits_month_budget_id_model_nearest_pk" PRIMARY KEY("month","budget_id","model","nearest")
);
--> statement-breakpoint
CREATE TABLE "journal_archived_reviews" (
	"month" date NOT NULL,
	"owner_id" text NOT NULL,
	"accepted" integer NOT NULL,
	"reviewed" integer NOT NULL,
	CONSTRAINT "journal_archived_reviews_month_owner_id_pk" PRIMARY KEY("month","owner_id")
);
--> statement-breakpoint
CREATE TABLE "journal_archived_runs" (
	"month" date NOT NULL,
	"run_id" text NOT NULL,
	CONSTRAINT "journal_archived_runs_month_run_id_pk" PRIMARY KEY("month","run_id")
);
--> statement-breakpoint
CREATE TABLE "journal_archived_tasks" (
	"month" date NOT NULL,
	"task_id" uuid NOT NULL,
	"claimed_by" text[] NOT NULL,
	CONSTRAINT "journal_archived_tasks_month_task_id_pk" PRIMARY KEY("month","task_id")
);
--> statement-breakpoint
CREATE TABLE "journal_archives" (
	"month" date PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"events" integer NOT NULL,
	"first_id" bigint,
	"last_id" bigint,
	"file" text NOT NULL,
	"sha256" text NOT NULL,
	"archived_at" timestamp with time zone NOT NULL,
	CONSTRAINT "journal_archives_month_check" CHECK (extract(day from "journal_archives"."month") = 1)
);
--> statement-breakpoint
ALTER TABLE "journal_archived_debits" ADD CONSTRAINT "journal_archived_debits_month_journal_archives_month_fk" FOREIGN KEY ("month") REFERENCES "public"."journal_archives"("month") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_archived_reviews" ADD CONSTRAINT "journal_archived_reviews_month_journal_archives_month_fk" FOREIGN KEY ("month") REFERENCES "public"."journal_archives"("month") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_archived_runs" ADD CONSTRAINT "journal_archived_runs_month_journal_archives_month_fk" FOREIGN KEY ("month") REFERENCES "public"."journal_archives"("month") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_archived_tasks" ADD CONSTRAINT "journal_archived_tasks_month_journal_archives_month_fk" FOREIGN KEY ("month") REFERENCES "public"."journal_archives"("month") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journal_archived_debits_budget_idx" ON "journal_archived_debits" USING btree ("budget_id");--> statement-breakpoint
CREATE INDEX "journal_archived_reviews_owner_idx" ON "journal_archived_reviews" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "journal_archived_runs_run_idx" ON "journal_archived_runs" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "journal_archived_tasks_task_idx" ON "journal_archived_tasks" USING btree ("task_id");
--> statement-breakpoint
-- Every index and trigger of the journal as it is now, to be made again on the partitioned table. A unique
-- index must hold the partition key to exist on a partitioned table: one that does not (it would have to be
-- unique across months) is made again as a plain index, and the migration says so.
CREATE TEMPORARY TABLE "journal_shape" ON COMMIT DROP AS
  SELECT 1 AS step, c.relname AS name, pg_get_indexdef(i.indexrelid) AS def,
         i.indisunique AND NOT ((SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = 'events'::regclass AND a.attname = 't') = ANY (i.indkey)) AS unique_across_months
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'events'::regclass AND NOT i.indisprimary
  UNION ALL
  SELECT 2, t.tgname, pg_get_triggerdef(t.oid), false FROM pg_trigger t WHERE t.tgrelid = 'events'::regclass AND NOT t.tgisinternal;
--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_before_partitioning";
--> statement-breakpoint
DO $$
DECLARE
  ix record;
BEGIN
  FOR ix IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'events_before_partitioning'::regclass LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.relname, 'before_partitioning_' || ix.relname);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE TABLE "events" (
  "id" bigint NOT NULL DEFAULT nextval('events_id_seq'::regclass),
  "v" integer DEFAULT 1 NOT NULL,
  "t" timestamp with time zone DEFAULT now() NOT NULL,
  "kind" text NOT NULL,
  "actor" uuid,
  "run_id" text,
  "task_id" uuid,
  "turn" integer,
  "data" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "tx_id" xid8 DEFAULT pg_current_xact_id() NOT NULL
) PARTITION BY RANGE ("t");
--> statement-breakpoint
ALTER SEQUENCE "events_id_seq" OWNED BY "events"."id";
--> statement-breakpoint
-- Whoever could read or append to the journal still can (the embedded database re-grants its app role after
-- every migration; a DATABASE_URL deployment keeps the grants it made).
DO $$
DECLARE
  g record;
BEGIN
  FOR g IN
    SELECT a.grantee, a.privilege_type FROM pg_class c, aclexplode(c.relacl) a
    WHERE c.oid = 'events_before_partitioning'::regclass AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('GRANT %s ON events TO %s', g.privilege_type, CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE g.grantee::regrole::text END);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
REVOKE ALL ON "events_default" FROM PUBLIC;
--> statement-breakpoint
CREATE FUNCTION public.quorum_journal_partition(p_month date)
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
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (t >= %L AND t < %L)', part, part || '_month', lo, hi);
  LOCK TABLE events_default IN SHARE ROW EXCLUSIVE MODE;
  EXECUTE format('INSERT INTO %I SELECT * FROM events_default WHERE t >= $1 AND t < $2', part) USING lo, hi;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved > 0 THEN
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
END $function$;
--> statement-breakpoint
SELECT quorum_journal_partition(m) FROM (
  SELECT DISTINCT date_trunc('month', "t" AT TIME ZONE 'UTC')::date AS m FROM "events_before_partitioning"
  UNION
  SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + n * interval '1 month')::date FROM generate_series(0, 1) AS n
) AS months ORDER BY m;
--> statement-breakpoint
INSERT INTO "events" ("id", "v", "t", "kind", "actor", "run_id", "task_id", "turn", "data", "tx_id")
  SELECT "id", "v", "t", "kind", "actor", "run_id", "task_id", "turn", "data", "tx_id" FROM "events_before_partitioning" ORDER BY "tx_id", "id";
--> statement-breakpoint
DROP TABLE "events_before_partitioning";
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY ("id", "t");
--> statement-breakpoint
-- Built once the rows are in (faster than keeping them up row by row). A row trigger on a partitioned
-- table is cloned onto every partition, those attached later included.
DO $$
DECLARE
  d record;
BEGIN
  FOR d IN SELECT name, def, unique_across_months FROM journal_shape ORDER BY step LOOP
    IF d.unique_across_months THEN
      RAISE NOTICE 'index % was unique over the whole journal, which a table partitioned by month cannot hold: it is made again as a plain index', d.name;
      EXECUTE regexp_replace(d.def, '^CREATE UNIQUE INDEX', 'CREATE INDEX');
    ELSE
      EXECUTE d.def;
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- The partitions' indexes, built above with names of their columns, are named after the journal's own.
DO $$
DECLARE
  ix record;
BEGIN
  FOR ix IN
    SELECT c.relname AS name, t.relname || substr(p.relname, 7) AS wanted FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_inherits h ON h.inhrelid = i.indexrelid JOIN pg_class p ON p.oid = h.inhparent
    JOIN pg_inherits ti ON ti.inhrelid = i.indrelid
    WHERE ti.inhparent = 'events'::regclass AND c.relname <> t.relname || substr(p.relname, 7)
  LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.name, ix.wanted);
  END LOOP;
END $$;
--> statement-breakpoint
-- Autovacuum analyzes each partition but never a partitioned table itself: give the planner the whole journal's statistics once.
ANALYZE "events";

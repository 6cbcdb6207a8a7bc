-- Review records (the roster's success rate, reassignment's score) are tallied per owner as each TaskReviewed is
-- journalled (db/functions/quorum_tally_review.sql) instead of counted by scanning every verdict on each read,
-- which grew with the journal. The tallies hold archived months too (they were counted when journalled), so
-- journal_archived_reviews, the archived months' share of the old scan, goes. The trigger exists before the
-- backfill, in one transaction: an append waits for it, none is missed or counted twice.
CREATE TABLE "review_tallies" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"reviewed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.quorum_tally_review()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.data->>'ownerId' IS NOT NULL THEN
    INSERT INTO review_tallies (owner_id, accepted, reviewed)
    VALUES (NEW.data->>'ownerId', CASE WHEN NEW.data->>'verdict' = 'accept' THEN 1 ELSE 0 END, 1)
    ON CONFLICT (owner_id) DO UPDATE
      SET accepted = review_tallies.accepted + EXCLUDED.accepted, reviewed = review_tallies.reviewed + 1;
  END IF;
  RETURN NULL;
END $function$;
--> statement-breakpoint
CREATE TRIGGER events_tally_review AFTER INSERT ON "events" FOR EACH ROW WHEN (NEW.kind = 'TaskReviewed') EXECUTE FUNCTION quorum_tally_review();
--> statement-breakpoint
INSERT INTO "review_tallies" ("owner_id", "accepted", "reviewed")
SELECT owner_id, sum(accepted)::int, sum(reviewed)::int FROM (
  SELECT data->>'ownerId' AS owner_id, count(*) FILTER (WHERE data->>'verdict' = 'accept') AS accepted, count(*) AS reviewed
    FROM "events" WHERE kind = 'TaskReviewed' AND data->>'ownerId' IS NOT NULL GROUP BY 1
  UNION ALL
  SELECT owner_id, accepted, reviewed FROM "journal_archived_reviews"
) AS verdicts GROUP BY owner_id;
--> statement-breakpoint
DROP TABLE "journal_archived_reviews" CASCADE;

-- An owner's review record (server/tasks/review-record.ts: the roster's success rate, reassignment's score):
-- every TaskReviewed the journal receives is counted into review_tallies by the statement that appends it, so
-- reading a record is one row instead of a scan of every verdict ever given. Exact across retention: archiving
-- a month leaves the tallies alone (its verdicts were counted when journalled) and a restore writes the month
-- back with the partition's triggers off (server/retention/restore.ts), so nothing is counted twice.
-- Trigger on events, TaskReviewed only (migration 0043).
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
END $function$
;

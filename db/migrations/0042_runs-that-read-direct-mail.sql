-- The direct-message rule (server/journal/visibility.ts) reads, for a run's context event, the ModelCalled events of that run
-- that delivered mail: this index holds only those, so the rule is one small index probe per partition instead of
-- intersecting the run's events with every ModelCalled of the journal (a cost that grew with the journal).
CREATE INDEX "events_run_mail_idx" ON "events" USING btree ("run_id","turn") WHERE "events"."kind" = 'ModelCalled' and "events"."data"->'mail' <> '[]'::jsonb;
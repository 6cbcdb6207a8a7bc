-- A search looks for its words in event_search (migration 0027), and whether PostgreSQL walks the journal
-- newest first probing each event's document or asks the GIN index for the matches first depends on how many
-- matches it expects. A word outside the column's statistics (its most common lexemes) is estimated from the
-- rarest one kept, which at the default target overestimated a word that matches nothing by ~1,000 rows: the
-- plan walked 1,051,100 documents to find none (307 ms). With 1,000 as the target, ten times the lexemes are
-- kept, the same search asks the index (5 ms) and a common word still walks (12 ms for the newest 100).
-- Measured on PostgreSQL 15, bench/bill-fold.ts's journal kept with --keep, 2026-12-01.
ALTER TABLE "event_search" ALTER COLUMN "document" SET STATISTICS 1000;

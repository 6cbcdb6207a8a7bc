-- The bill folds UsageReported too (what an outside agent says its model calls spent): its partial index of
-- settled bill events (migration 0015) lists the same kinds as BILL_KINDS in server/bill/bill-fold.ts.
DROP INDEX IF EXISTS "events_bill_settled_idx";
--> statement-breakpoint
CREATE INDEX "events_bill_settled_idx" ON "events" USING btree ("tx_id", "id")
  WHERE kind IN ('BudgetDebited', 'BudgetCreated', 'BudgetAllowanceChanged', 'RunStarted', 'AgentFinished', 'BudgetExhausted', 'RunStopped', 'UsageReported');

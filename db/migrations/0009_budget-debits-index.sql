-- A budget's spend is the sum of the BudgetDebited events naming it (a debit names the budget and
-- every ancestor in data.budgetIds); the turn-boundary check finds them through this index.
CREATE INDEX "events_budget_debits_idx" ON "events" USING gin ((data -> 'budgetIds') jsonb_path_ops)
  WHERE kind = 'BudgetDebited';

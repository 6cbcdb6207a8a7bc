-- An agent's page lists its ten latest gate refusals (server/roster/agent-detail.ts): this index holds only refusals, by
-- actor and id, so the read walks one agent's newest refusals instead of intersecting all its events with every
-- refusal in the journal (both grew with the journal: 1.4 s an agent page at 1M events, bench/results/2026-12-03-scale.md).
CREATE INDEX "events_gate_rejected_idx" ON "events" USING btree ("actor","id") WHERE "events"."kind" = 'GateRejected';
-- A high finding of the MAST monitor (DiagnosisFound, severity high) fires `diagnosis.found`: the outbox
-- trigger's kinds gain it (the function, db/functions/quorum_webhook_outbox.sql, decides the severity).
DROP TRIGGER events_webhook_outbox ON "events";--> statement-breakpoint
CREATE TRIGGER events_webhook_outbox AFTER INSERT ON "events"
  FOR EACH ROW
  WHEN (NEW.kind IN ('DecisionEscalated', 'EscalationResolved', 'DefaultAdopted', 'DecisionClosed', 'TaskSubmitted', 'BudgetExhausted', 'LeaseExpired', 'AgentStalled', 'DiagnosisFound'))
  EXECUTE FUNCTION quorum_webhook_outbox();

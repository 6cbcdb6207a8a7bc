-- The webhook outbox is written by the journal itself: an event of a kind that maps to a webhook type
-- writes one delivery row per live endpoint subscribed to it, in the same statement. A trigger, not code
-- in appendEvent, because appendEvent also runs on a plain Db (no transaction), and because no future
-- path that journals an escalation, a review or an expiry can forget to announce it. Trigger on events
-- (migration 0020).
CREATE OR REPLACE FUNCTION public.quorum_webhook_outbox()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  types text[];
  extra jsonb := '{}'::jsonb;
  body_data jsonb;
  wanted text;
BEGIN
  types := CASE NEW.kind
    WHEN 'DecisionEscalated' THEN ARRAY['escalation.opened']
    WHEN 'EscalationResolved' THEN ARRAY['escalation.resolved', 'decision.resolved']
    WHEN 'DefaultAdopted' THEN ARRAY['escalation.resolved', 'decision.resolved']
    WHEN 'DecisionClosed' THEN ARRAY['decision.resolved']
    WHEN 'TaskSubmitted' THEN ARRAY['review.requested']
    WHEN 'BudgetExhausted' THEN ARRAY['budget.exhausted']
    WHEN 'LeaseExpired' THEN ARRAY['lease.expired']
    WHEN 'AgentStalled' THEN ARRAY['agent.stalled']
    -- The MAST monitor's findings page people only when they landed (server/diagnosis/modes.ts: high).
    WHEN 'DiagnosisFound' THEN CASE WHEN NEW.data->>'severity' = 'high' THEN ARRAY['diagnosis.found'] ELSE ARRAY[]::text[] END
    ELSE ARRAY[]::text[]
  END;
  IF NEW.task_id IS NOT NULL THEN
    SELECT jsonb_build_object('title', t.title, 'approverId', t.approver_id, 'approverName', p.name, 'approverKind', p.kind)
      INTO extra FROM tasks t JOIN principals p ON p.id = t.approver_id WHERE t.id = NEW.task_id;
    extra := coalesce(extra, '{}'::jsonb);
  END IF;
  -- A task waits for review by a human only when its approver is one; an agent approver is not paged.
  IF NEW.kind = 'TaskSubmitted' AND extra->>'approverKind' IS DISTINCT FROM 'human' THEN
    RETURN NULL;
  END IF;
  body_data := NEW.data || extra || jsonb_build_object('eventId', NEW.id, 'kind', NEW.kind, 'actor', NEW.actor, 'taskId', NEW.task_id, 'runId', NEW.run_id);
  FOREACH wanted IN ARRAY types LOOP
    INSERT INTO webhook_deliveries (id, endpoint_id, type, body, event_id, next_attempt_at, created_at)
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, wanted,
           jsonb_build_object('type', wanted, 'timestamp', to_char(NEW.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', body_data)::text,
           NEW.id, NEW.t, NEW.t
      FROM webhook_endpoints e
     WHERE e.disabled_at IS NULL AND e.deleted_at IS NULL AND wanted = ANY (e.events);
  END LOOP;
  RETURN NULL;
END $function$
;

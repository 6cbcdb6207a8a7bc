-- How long a lease lasts (DESIGN §6): the task's own lease_minutes, else the default the server passes in
-- seconds (server/tasks/lease.ts reads it from the environment: globalLeaseSeconds). Every statement that
-- sets or reads back a lease in SQL asks it: the claim (quorum_start_work) and the stall sweeper
-- (leaseLengthSql in server/tasks/lease.ts, whose leaseSecondsOf is the same rule for a row already in hand).
-- One expression, IMMUTABLE: inlined, it costs a statement nothing.
CREATE OR REPLACE FUNCTION public.quorum_lease_length(p_lease_minutes integer, p_default_secs integer)
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT make_interval(secs => coalesce(p_lease_minutes * 60, p_default_secs))
$function$
;

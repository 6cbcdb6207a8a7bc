-- The commitment graph's one lock (DESIGN §8): edge insertion is serialised on it, so two edges that
-- together close a cycle are checked one after the other and the second sees the first. Its key is
-- written here only: the trigger quorum_commitment_edge_acyclic and server/commitments/graph-lock.ts
-- both take it through this function. Held until the transaction ends.
CREATE OR REPLACE FUNCTION public.quorum_lock_commitment_graph()
 RETURNS void
 LANGUAGE sql
AS $function$
  SELECT pg_advisory_xact_lock(8451101)
$function$
;

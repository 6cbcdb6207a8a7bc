-- The commitment graph stays acyclic (DESIGN §8). The graph's lock (quorum_lock_commitment_graph, which
-- server/commitments/graph-lock.ts takes too) serialises edge insertion, so two edges that together close a
-- cycle can never both land. Trigger on commitment_dependencies (migration 0004).
CREATE OR REPLACE FUNCTION public.quorum_commitment_edge_acyclic()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM quorum_lock_commitment_graph();
  IF EXISTS (
    WITH RECURSIVE reach(node) AS (
      SELECT NEW.blocker_id
      UNION
      SELECT d.blocker_id FROM commitment_dependencies d JOIN reach r ON d.blocked_id = r.node
    )
    SELECT 1 FROM reach WHERE node = NEW.blocked_id
  ) THEN
    RAISE EXCEPTION 'the dependency % <- % would close a cycle', NEW.blocked_id, NEW.blocker_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$
;

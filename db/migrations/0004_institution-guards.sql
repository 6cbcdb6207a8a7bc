-- Decisions and commitments keep their rules in the database too, so a second writer cannot break them.
-- A ballot is cast only on an open decision, for one of its options, and once cast it stands.
CREATE FUNCTION quorum_ballot_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'a cast ballot stands: % on ballots is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
  END IF;
  SELECT status, options INTO d FROM decisions WHERE id = NEW.decision_id;
  IF d.status IS DISTINCT FROM 'open' THEN
    RAISE EXCEPTION 'decision % is not open for ballots', NEW.decision_id USING ERRCODE = 'check_violation';
  END IF;
  IF NOT (NEW.option = ANY (d.options)) THEN
    RAISE EXCEPTION 'option % is not one of the decision''s options', NEW.option USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER ballots_guard BEFORE INSERT OR UPDATE OR DELETE ON "ballots"
  FOR EACH ROW EXECUTE FUNCTION quorum_ballot_guard();
--> statement-breakpoint
-- The dependency graph stays acyclic. The advisory lock (the same key server/commitments/graph-lock.ts
-- takes) serialises edge insertion, so two edges that together close a cycle can never both land.
CREATE FUNCTION quorum_commitment_edge_acyclic() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(8451101);
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
END $$;
--> statement-breakpoint
CREATE TRIGGER commitment_dependencies_acyclic BEFORE INSERT OR UPDATE OF blocked_id, blocker_id ON "commitment_dependencies"
  FOR EACH ROW EXECUTE FUNCTION quorum_commitment_edge_acyclic();

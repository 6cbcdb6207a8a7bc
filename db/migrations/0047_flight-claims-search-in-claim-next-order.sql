-- A flight's claim searches in claim-next's order through quorum_claim_next_tasks, which takes the scope, the
-- flight and the claim's via as new arguments: the old signature goes (db/functions/ installs the new one).
DROP FUNCTION IF EXISTS quorum_claim_next_tasks(uuid[], text[], timestamp with time zone[], integer);

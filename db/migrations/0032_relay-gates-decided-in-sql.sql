-- The relay's gates are decided once, in SQL: quorum_post_gate_refusal (db/functions/) names the gate that
-- refuses a post and its figures, and quorum_post_message records the refusal in the same call. The
-- admission test that only said yes or no goes, and the relay's numbers are read from quorum_relay_limits
-- instead of arriving as JSON on every call, so the post functions lose their p_limits argument: the old
-- signatures are dropped here, and the new ones are installed from their files after the migrations.
DROP FUNCTION IF EXISTS public.quorum_post_gates_pass(jsonb, boolean, boolean, double precision, jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS public.quorum_post_messages(text, jsonb, jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS public.quorum_post_message(text, uuid, boolean, text, text, uuid, text[], text, boolean, text, uuid, jsonb, boolean, timestamp with time zone, jsonb);

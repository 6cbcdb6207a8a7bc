-- The full-text document of an event: every string value of its payload (message bodies, tool
-- observations, summaries, reasons…), capped so that one huge payload never refuses an append or a search.
CREATE OR REPLACE FUNCTION public.quorum_event_document(payload jsonb)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT to_tsvector('english'::regconfig, left(coalesce(string_agg(v #>> '{}', ' '), ''), 200000))
  FROM jsonb_path_query(payload, 'strict $.** ? (@.type() == "string")') AS v
$function$
;

// The team model's state as the journal tells it: the latest calls of runs on that model — ok, failing
// since the first failure of the current streak, or unreachable (the latest failure never got an answer).
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";

export interface ModelState {
  /** The client's name as it describes itself in RunStarted (`<wire>:<model>`). */
  model: string;
  /** `unknown` before any call. */
  state: "ok" | "failing" | "unreachable" | "unknown";
  /** When the current state began: the last answer (ok) or the streak's first failure. */
  since: string | null;
  /** Calls that failed for good since the model last answered. */
  failures: number;
  /** The latest failure's message, while failing. */
  lastError: string | null;
}

/** How far back the state looks: a streak longer than this is counted as this long. */
const WINDOW = 200;

export async function readModelState(db: Executor, model: string): Promise<ModelState> {
  const rows = await db.execute<{ kind: string; t: Date | string; error: string | null; status: string | null }>(sql`
    select e.kind, e.t, e.data->>'error' as error, e.data->>'status' as status
    from events e
    where e.kind in ('ModelResponded', 'ModelFailed')
      and e.run_id in (select r.run_id from events r where r.kind = 'RunStarted' and r.data->>'model' = ${model})
    order by e.id desc
    limit ${WINDOW}`);
  const iso = (t: Date | string) => new Date(t).toISOString();
  const [latest] = rows;
  if (!latest) return { model, state: "unknown", since: null, failures: 0, lastError: null };
  if (latest.kind === "ModelResponded") return { model, state: "ok", since: iso(latest.t), failures: 0, lastError: null };
  const streak = rows.findIndex((r) => r.kind === "ModelResponded");
  const failed = streak === -1 ? rows : rows.slice(0, streak);
  return {
    model,
    state: latest.status === null ? "unreachable" : "failing",
    since: iso(failed[failed.length - 1].t),
    failures: failed.length,
    lastError: latest.error,
  };
}

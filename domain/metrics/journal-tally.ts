// The hub's counters, counted from the journal: what every app instance, every team worker and every outside
// agent did, whichever process did it (a worker on another host included), and the same figures on every
// instance. The journal only grows, so its counts are true Prometheus counters that never reset.
//
// Each process keeps its totals and a horizon, and each scrape counts only what settled since: the events of
// transactions older than the oldest one still in flight (quorum_settle_horizon, the announcer's order), so a
// late commit is never passed over and nothing is counted twice. The first scrape after a start counts the
// whole journal once (the kinds below, through events_kind_idx); later ones read seconds of it.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

/** The kinds counted; each feeds one series of ./registry.ts. */
export const TALLIED_KINDS = [
  "MessageSent",
  "GateRejected",
  "TaskClaimed",
  "LeaseExpired",
  "AgentStalled",
  "WebhookDelivered",
  "WebhookFailed",
  "RunStarted",
  "ModelCalled",
  "ModelRetried",
  "ModelFailed",
  "BudgetDebited",
  "ToolReturned",
  "UsageReported",
] as const;
export type TalliedKind = (typeof TALLIED_KINDS)[number];

interface Row extends Record<string, unknown> {
  kind: TalliedKind;
  /** The actor's kind (human, agent, system), its role, and the model client of the run the event belongs to. */
  principal_kind: string | null;
  role: string | null;
  model: string | null;
  /** A gate, a tool, whether a failure was permanent: what the kind is counted by. */
  detail: string | null;
  failed: boolean | null;
  n: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
}

export interface TallyLine {
  kind: TalliedKind;
  principalKind: string;
  role: string;
  model: string;
  detail: string;
  failed: boolean;
  count: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

interface Tally {
  /** Every event of a transaction below this has been counted. */
  horizon: string;
  lines: Map<string, TallyLine>;
  refreshing?: Promise<void>;
}

const HOLDER = Symbol.for("quorum.journalTally");
const processWide = globalThis as { [HOLDER]?: WeakMap<Db, Tally> };

async function countSettled(db: Db, tally: Tally): Promise<void> {
  const [{ horizon }] = (await db.execute(sql`select quorum_settle_horizon()::text as horizon`)) as unknown as { horizon: string }[];
  const rows = (await db.execute(sql`
    select e.kind,
           p.kind as principal_kind,
           p.role,
           coalesce(r.data->>'model', case when e.kind = 'UsageReported' then e.data->>'model' end) as model,
           case e.kind
             when 'GateRejected' then e.data->>'gate'
             when 'ToolReturned' then e.data->>'tool'
             when 'ModelFailed' then coalesce(e.data->>'permanent', 'false')
           end as detail,
           case when e.kind = 'ToolReturned' then coalesce((e.data->'observation'->>'is_error')::boolean, false) end as failed,
           count(*)::float8 as n,
           coalesce(sum((e.data->>'inputTokens')::float8) filter (where e.kind in ('BudgetDebited', 'UsageReported')), 0) as input_tokens,
           coalesce(sum((e.data->>'outputTokens')::float8) filter (where e.kind in ('BudgetDebited', 'UsageReported')), 0) as output_tokens,
           coalesce(sum((e.data->>'cachedTokens')::float8) filter (where e.kind in ('BudgetDebited', 'UsageReported')), 0) as cached_tokens
      from events e
      left join principals p on p.id = e.actor
      left join lateral (
        select s.data from events s where e.run_id is not null and s.run_id = e.run_id and s.kind = 'RunStarted' order by s.id limit 1
      ) r on true
     where e.kind in (${sql.join(
       TALLIED_KINDS.map((kind) => sql`${kind}`),
       sql`, `,
     )})
       and e.tx_id >= ${tally.horizon}::xid8
       and e.tx_id < ${horizon}::xid8
     group by 1, 2, 3, 4, 5, 6`)) as unknown as Row[];
  for (const row of rows) {
    const line: TallyLine = {
      kind: row.kind,
      principalKind: row.principal_kind ?? "",
      role: row.role ?? "",
      model: row.model ?? "",
      detail: row.detail ?? "",
      failed: row.failed ?? false,
      count: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
    };
    const key = JSON.stringify([line.kind, line.principalKind, line.role, line.model, line.detail, line.failed]);
    const held = tally.lines.get(key) ?? line;
    held.count += Number(row.n);
    held.inputTokens += Number(row.input_tokens);
    held.outputTokens += Number(row.output_tokens);
    held.cachedTokens += Number(row.cached_tokens);
    tally.lines.set(key, held);
  }
  tally.horizon = horizon;
}

/**
 * The journal's counts up to now, by kind and what each kind is counted by. Concurrent scrapes share one read;
 * a failed read leaves the totals and the horizon as they were (the next scrape counts from there).
 */
export async function tallyJournal(db: Db): Promise<TallyLine[]> {
  processWide[HOLDER] ??= new WeakMap();
  const tallies = processWide[HOLDER];
  let tally = tallies.get(db);
  if (!tally) {
    tally = { horizon: "0", lines: new Map() };
    tallies.set(db, tally);
  }
  const current = tally;
  current.refreshing ??= countSettled(db, current).finally(() => {
    current.refreshing = undefined;
  });
  await current.refreshing;
  return [...current.lines.values()];
}

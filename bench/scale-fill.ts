// Fills the scale bench's journal in SQL (INSERT … SELECT generate_series), the rows the app's writers would
// leave behind: messages in rooms and direct messages (the messages table, MessageSent and MessageDelivered),
// agents' runs of ten turns (RunStarted … BudgetDebited … AgentFinished, their ModelCalled reading mail),
// tasks carried to done (the tasks table, TaskCreated, TaskClaimed, TaskSubmitted, TaskReviewed) and gate
// refusals. Events are spread over a year in `t` (monthly partitions made first), oldest first.
import type { Connection } from "../db/client";

/** Per 1,000 events: ~400 are messages (two events each), ~520 a run's, ~80 a task's (four each). */
const CHUNK = 100_000;
const PER_RUN = 52;
const ROOMS = ["general", "room-1", "room-2", "room-3", "room-4", "room-5", "room-6", "room-7"];
/** The whole planned journal (10M) spans a year: the timestamp of event g is START + g × STEP. */
const PLANNED = 10_000_000;
const SPAN_DAYS = 360;

export interface FillContext {
  agents: string[];
  human: string;
  budgets: { root: string[]; sub: string[] };
  startMs: number;
}

export const fillRooms = ROOMS;

/** Monthly partitions for the year the fill spans (the sweeper makes only the months ahead). */
export async function preparePartitions(c: Connection, startMs: number): Promise<void> {
  for (let d = new Date(startMs); d.getTime() < Date.now() + 40 * 86_400_000; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) {
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-01`;
    await c.sql`select quorum_journal_partition(${month}::date)`;
  }
}

/** Events g in [from, to) of the planned journal, in chunks; calls `onChunk` with the events written so far. */
export async function fill(c: Connection, ctx: FillContext, from: number, to: number, onChunk: (written: number) => void): Promise<void> {
  for (let at = from; at < to; at += CHUNK) {
    const end = Math.min(to, at + CHUNK);
    await c.sql.begin(async (tx) => {
      const sql = tx as unknown as Connection["sql"];
      const [{ before }] = await sql<{ before: string }[]>`select coalesce(max(id), 0)::text as before from messages`;
      await messagesChunk(sql, ctx, at, end);
      // Each agent's newest direct message of this chunk: the mail its runs' first turn reads.
      const newest = await sql<{ to_id: string; id: string; room: string; seq: string }[]>`
        select distinct on (to_id) to_id, id::text, room, seq::text from messages where id > ${before}::bigint and to_id is not null order by to_id, id desc`;
      const byAgent = new Map(newest.map((m) => [m.to_id, { messageId: Number(m.id), room: m.room, seq: Number(m.seq) }]));
      await runsChunk(
        sql,
        ctx,
        at,
        end,
        ctx.agents.map((a) => byAgent.get(a) ?? null),
      );
      await tasksChunk(sql, ctx, at, end);
    });
    onChunk(end);
  }
}

const tOf = (ctx: FillContext) => `to_timestamp(${ctx.startMs / 1000}::float8) + g * (interval '${SPAN_DAYS} days' / ${PLANNED})`;

/** 20% of g are messages (each two events); every 4th a direct message between two agents. */
async function messagesChunk(sql: Connection["sql"], ctx: FillContext, from: number, to: number): Promise<void> {
  await sql.unsafe(
    `
    with src as (
      select g, ($1::text[])[1 + (g / 5) % ${ROOMS.length}] as room,
             ($2::uuid[])[1 + (g / 5) % array_length($2::uuid[], 1)] as sender,
             case when (g / 5) % 4 = 0 then ($2::uuid[])[1 + (g / 5 + 7) % array_length($2::uuid[], 1)] end as to_id,
             case when (g / 5) % 9 = 0 then $3::uuid end as human,
             ${tOf(ctx)} as t
      from generate_series($4::bigint, $5::bigint - 1) g where g % 5 = 0
    ), numbered as (
      select src.*, r.last_seq + row_number() over (partition by src.room order by g) as seq from src join rooms r on r.name = src.room
    ), bump as (
      update rooms r set last_seq = m.seq from (select room, max(seq) as seq from numbered group by room) m where r.name = m.room
    ), msg as (
      insert into messages (room, seq, sender_id, to_id, body, created_at)
      select room, seq, coalesce(human, sender), case when human is null then to_id end,
             'Reading the parser before editing it: message ' || g || ' about revision ' || (g % 997), t
      from numbered order by g
      returning id, room, seq, sender_id, to_id, body, created_at
    )
    insert into events (kind, actor, t, data)
    select case when k = 0 then 'MessageSent' else 'MessageDelivered' end, sender_id, created_at,
      case when k = 0 then jsonb_build_object('room', room, 'seq', seq, 'to', to_id, 'performative', null, 'body', body, 'mentions', '[]'::jsonb, 'heldSeq', null, 'messageId', id)
           else jsonb_build_object('via', 'inbox', 'room', room, 'seq', seq, 'messageId', id, 'performative', null,
                  'recipients', case when to_id is null then to_jsonb($2::uuid[]) else jsonb_build_array(to_id) end, 'held', '[]'::jsonb, 'nudge', false) end
    from msg, generate_series(0, 1) k order by id, k`,
    [ROOMS, ctx.agents, ctx.human, from, to],
  );
}

/** Half of g are a run's events, in runs of ten turns; the first ModelCalled reads the latest direct message to its agent. */
async function runsChunk(sql: Connection["sql"], ctx: FillContext, from: number, to: number, mail: unknown[]): Promise<void> {
  await sql.unsafe(
    `
    with src as (
      select g, q / ${PER_RUN} as r, q % ${PER_RUN} as p, ${tOf(ctx)} as t
      from generate_series($1::bigint, $2::bigint - 1) g, lateral (select (g / 10) * 5 + (g % 10) - 5 as q) qq where g % 10 >= 5
    ), shaped as (
      select src.*, ((r % n) + 1)::int as a, (array['gpt-4o', 'claude-sonnet', 'llama-3'])[(r % 3) + 1] as m,
        (100 + (g * 7919) % 900)::int as inp, (10 + (g * 104729) % 190)::int as outp, case when g % 3 = 0 then 50 else 0 end as cached
      from src, (select array_length($3::uuid[], 1) as n) c
    )
    insert into events (kind, actor, run_id, turn, t, data)
    select
      case when p = 0 then 'RunStarted' when p = ${PER_RUN - 1} then 'AgentFinished'
           else (array['ModelCalled','ModelResponded','BudgetDebited','ToolDispatched','ToolReturned'])[((p - 1) % 5) + 1] end,
      ($3::uuid[])[a], 'run_scale_' || r,
      case when p = 0 then 0 when p = ${PER_RUN - 1} then 10 else ((p - 1) / 5) + 1 end, t,
      case
        when p = 0 then jsonb_build_object('task', 'Make the failing parser test pass', 'system', 'You are the coder.', 'principles', '[]'::jsonb,
          'tools', '[]'::jsonb, 'budgetId', ($5::uuid[])[a], 'budgetIds', jsonb_build_array(($5::uuid[])[a], ($4::uuid[])[a]),
          'maxTurns', 12, 'retryAttempts', 1, 'contextLimit', 100000, 'model', m, 'requestId', null)
        when p = ${PER_RUN - 1} then jsonb_build_object('result', jsonb_build_object('status', 'done', 'summary', 'parse('''') returns []', 'evidence', jsonb_build_array('2 passed'), 'turns', 10, 'spent', 0))
        when (p - 1) % 5 = 0 then jsonb_build_object('turn', ((p - 1) / 5) + 1,
          'mail', case when p = 1 and jsonb_typeof($6::jsonb -> (a - 1)) = 'object' then jsonb_build_array($6::jsonb -> (a - 1)) else '[]'::jsonb end,
          'context', jsonb_build_object('messages', 4, 'estimatedTokens', 300, 'droppedSteps', 0))
        when (p - 1) % 5 = 1 then jsonb_build_object('text', 'Reading the parser before editing it, turn ' || (((p - 1) / 5) + 1) || ' of run ' || r,
          'toolCalls', jsonb_build_array(jsonb_build_object('id', 'c1', 'name', 'read_file', 'arguments', jsonb_build_object('path', 'src/parse.js'))),
          'usage', jsonb_build_object('inputTokens', inp, 'outputTokens', outp, 'cachedTokens', cached, 'estimated', false), 'model', m)
        when (p - 1) % 5 = 2 then jsonb_build_object('amount', inp + outp, 'inputTokens', inp, 'outputTokens', outp, 'cachedTokens', cached, 'estimated', false, 'model', m,
          'budgetIds', jsonb_build_array(($5::uuid[])[a], ($4::uuid[])[a]))
        when (p - 1) % 5 = 3 then jsonb_build_object('index', 0, 'callId', 'c1', 'tool', 'read_file', 'args', jsonb_build_object('path', 'src/parse.js'), 'attempt', 1, 'writes', null)
        else jsonb_build_object('index', 0, 'callId', 'c1', 'tool', 'read_file', 'attempt', 1,
          'observation', jsonb_build_object('is_error', false, 'result', jsonb_build_object('content', 'export function parse(input) { return input.split(","); } // revision ' || g)))
      end
    from shaped order by g`,
    [from, to, ctx.agents, ctx.budgets.root, ctx.budgets.sub, JSON.stringify(mail)],
  );
}

/** Of every 100 g: two tasks carried to done (four events each), reviewed by the human, and one gate refusal. */
async function tasksChunk(sql: Connection["sql"], ctx: FillContext, from: number, to: number): Promise<void> {
  await sql.unsafe(
    `
    with src as (
      select g, ($1::uuid[])[1 + (g / 50) % array_length($1::uuid[], 1)] as owner, ${tOf(ctx)} as t
      from generate_series($3::bigint, $4::bigint - 1) g where g % 50 = 1
    ), made as (
      insert into tasks (title, description, acceptance_criteria, status, owner_id, approver_id, fence, created_by, created_at, updated_at)
      select 'Make the parser test pass, part ' || g, 'Task ' || g, 'npm test passes', 'done', owner, $2::uuid, 1, $2::uuid, t, t from src order by g
      returning id, number, owner_id, created_at
    )
    insert into events (kind, actor, task_id, t, data)
    select (array['TaskCreated','TaskClaimed','TaskSubmitted','TaskReviewed'])[k + 1], case when k in (1, 2) then owner_id else $2::uuid end, id,
      created_at + k * interval '1 minute',
      case k
        when 0 then jsonb_build_object('number', number, 'title', 'Make the parser test pass', 'approverId', $2::uuid, 'description', '', 'acceptanceCriteria', 'npm test passes')
        when 1 then jsonb_build_object('number', number, 'ownerId', owner_id, 'fence', 1, 'outputCount', 0, 'via', 'claim-next')
        when 2 then jsonb_build_object('number', number, 'fence', 1, 'summary', 'The parser splits on commas; 2 passed', 'evidenceId', 0, 'outputCount', 0)
        else jsonb_build_object('number', number, 'verdict', case when number % 4 = 0 then 'reject' else 'accept' end, 'reason', null, 'ownerId', owner_id, 'reviewerId', $2::uuid, 'fence', 1)
      end
    from made, generate_series(0, 3) k order by number, k`,
    [ctx.agents, ctx.human, from, to],
  );
  await sql.unsafe(
    `
    insert into events (kind, actor, t, data)
    select 'GateRejected', a, ${tOf(ctx)}, jsonb_build_object('room', 'general', 'gate', 'rate', 'reason', 'rate_limited', 'sender', a, 'senderName', 'agent',
      'to', case when g % 200 = 3 then ($1::uuid[])[1 + (g + 7) % array_length($1::uuid[], 1)] end, 'bodyPreview', 'again', 'figures', jsonb_build_object('sentInWindow', 31))
    from generate_series($2::bigint, $3::bigint - 1) g, lateral (select ($1::uuid[])[1 + g % array_length($1::uuid[], 1)] as a) x where g % 100 = 3 order by g`,
    [ctx.agents, from, to],
  );
}

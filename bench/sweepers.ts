// Measures one pass of each sweeper over 10,000 open items: `DATABASE_URL=… npx tsx bench/sweepers.ts`.
import { connect } from "../db/client";
import { manualClock } from "../domain/clock";
import { sweepReminders } from "../domain/commitments/sweep-reminders";
import { sweepDecisions } from "../domain/decisions/sweep-decisions";
import { withScratchDatabase } from "./lib";

const N = 10_000;

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await run();
  return { ms: performance.now() - start, result };
}

async function median(times: number, run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push((await timed(run)).ms);
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

await withScratchDatabase(async (url) => {
  const { db, sql, close } = connect(url);
  const start = new Date("2026-01-01T00:00:00Z");
  const at = start.toISOString();
  const [agent, other] = await sql`insert into principals (kind, name, role) values ('agent', 'bench-a', 'coder'), ('agent', 'bench-b', 'coder') returning id`;
  // 10,000 open decisions with 2 of 3 ballots each, timeboxes spread over the next hour.
  await sql`
    insert into decisions (question, options, default_option, consequence, quorum, timebox_at, escalation_timebox_seconds, opened_by, created_at)
    select 'Question ' || i, array['a', 'b', 'c'], 'c', 'the default applies', 3, ${at}::timestamptz + (i % 3600) * interval '1 second', 600, ${agent.id}, ${at}
    from generate_series(1, ${N}) i`;
  await sql`
    insert into ballots (decision_id, voter_id, option, reasoning, cast_at)
    select d.id, v.id, case when v.id = ${agent.id}::uuid then 'a' else 'b' end, 'because', ${at}
    from decisions d cross join (values (${agent.id}::uuid), (${other.id}::uuid)) v(id)`;
  // 10,000 confirmed commitments in chains of ten (9,000 edges), due dates an hour apart along each chain.
  await sql`
    insert into commitments (owner_id, what, due_at, status, created_at, confirmed_at)
    select ${agent.id}, 'Commitment ' || i, ${at}::timestamptz + ((i % 10) + 1) * interval '1 hour' + (i / 10) * interval '1 second', 'confirmed', ${at}, ${at}
    from generate_series(0, ${N - 1}) i`;
  await sql`
    insert into commitment_dependencies (blocked_id, blocker_id, created_by, created_at)
    select b.id, a.id, ${agent.id}, ${at}
    from commitments a join commitments b on b.number = a.number + 1 and a.number % 10 <> 0`;
  await sql`analyze`;

  const idle = manualClock(new Date(start.getTime() - 60_000));
  const decisionsIdle = await median(21, () => sweepDecisions(db, idle));
  const remindersIdle = await median(21, () => sweepReminders(db, idle));
  // Past the first due dates: the graph is walked and the critical path's overdue blockers nudged.
  const overdue = manualClock(new Date(start.getTime() + 3 * 3_600_000 + 30_000));
  const firstReminders = await timed(() => sweepReminders(db, overdue));
  const remindersBusy = await median(11, () => sweepReminders(db, overdue));
  // Every decision's timebox passes at once: one pass escalates all 10,000 and posts their envelopes.
  const late = manualClock(new Date(start.getTime() + 2 * 3_600_000));
  const escalate = await timed(() => sweepDecisions(db, late));
  const settledIdle = await median(11, () => sweepDecisions(db, late));
  late.advance(600_000);
  const adopt = await timed(() => sweepDecisions(db, late));
  console.log(
    JSON.stringify(
      {
        openItems: N,
        decisionsIdlePassMs: +decisionsIdle.toFixed(2),
        decisionsIdlePassAfterEscalationMs: +settledIdle.toFixed(2),
        escalateAllPass: { ms: Math.round(escalate.ms), ...escalate.result, msPerDecision: +(escalate.ms / N).toFixed(3) },
        adoptDefaultsPass: { ms: Math.round(adopt.ms), ...adopt.result, msPerDecision: +(adopt.ms / N).toFixed(3) },
        remindersIdlePassMs: +remindersIdle.toFixed(2),
        remindersFirstOverduePass: { ms: Math.round(firstReminders.ms), ...firstReminders.result },
        remindersOverduePassWithinCooldownMs: +remindersBusy.toFixed(1),
      },
      null,
      2,
    ),
  );
  await close();
});

// Retention under load (DESIGN §4): a month is archived while writers post and claim in the current one;
// nothing they were told succeeded is lost, every fold that outlives the month reads the same before and
// after, and a restore gives the journal back identical — ids, order, transactions and payloads.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { budgets as budgetsTable } from "../db/schema";
import { createBudget } from "../domain/budgets/create";
import { budgetSpent } from "../domain/budgets/spend";
import { manualClock } from "../domain/clock";
import { QuorumError } from "../domain/errors";
import { keepJournalPartitionsAhead } from "../domain/journal/partitions";
import { requireWorkedTask } from "../domain/memory/lesson-task";
import { advanceCursor } from "../domain/rooms/cursor";
import { postMessage } from "../domain/rooms/post-message";
import { archiveJournal } from "../domain/retention/archive";
import { restoreJournal } from "../domain/retention/restore";
import { listRoster } from "../domain/roster/roster";
import { loadAudit } from "../domain/tasks/audit";
import { claimNextTask } from "../domain/tasks/claim-next";
import { createTask } from "../domain/tasks/create";
import { presentAgents, rankCandidates } from "../domain/tasks/reassign";
import { submitTask } from "../domain/tasks/submit";
import { markPresent } from "./fixtures/board";
import { archiveFolder, foldsOf, monthRows, workedTask } from "./fixtures/retention";
import { makeAgent, makeHuman } from "./helpers";

describe("retention under load", () => {
  it("archives a month under load — writers posting and claiming throughout — with every fold unchanged, and restores the journal identical", { timeout: 240_000 }, async () => {
    const db = getDb();
    const clock = manualClock(new Date("2026-07-06T09:00:00Z"));
    // The sweeper made July's partition and the months after it ahead of time, as it does.
    await keepJournalPartitionsAhead(db, clock, 2);
    const lead = await makeHuman();
    const coders = [await makeAgent(undefined, "coder"), await makeAgent(undefined, "coder")];
    const budgets = await Promise.all(coders.map((c) => createBudget(db, null, { ownerId: c.id, allowance: 1_000_000, label: `${c.name}'s` }, clock)));
    // July: finished work on both coders' budgets, a rejection among it.
    const old = [
      await workedTask(lead, coders[0], budgets[0].id, clock, { reject: true }),
      await workedTask(lead, coders[1], budgets[1].id, clock),
      await workedTask(lead, coders[0], budgets[0].id, clock),
    ];
    await postMessage(db, lead, "general", { body: "July's news" }, clock);
    // September: the live journal — more work, a task still in progress, cursors in the room and in a run's mail.
    clock.set(new Date("2026-09-08T09:00:00Z"));
    const live = await workedTask(lead, coders[1], budgets[1].id, clock, { reject: true });
    const open = await workedTask(lead, coders[0], budgets[0].id, clock, { finish: false });
    const posted = await postMessage(db, lead, "general", { body: `@${coders[0].name} a note for you` }, clock);
    await advanceCursor(db, coders[0], "general", { seq: posted.seq }, clock);
    await markPresent(clock, ...coders);
    const everyBudget = (await db.select({ id: budgetsTable.id }).from(budgetsTable)).map((b) => b.id);
    const readAll = async () => {
      const roster = await listRoster(db, clock, {});
      return {
        bill: await foldsOf(
          budgets.map((b) => b.id),
          coders.map((c) => c.id),
          [live.runId, open.runId],
        ),
        spend: await Promise.all(everyBudget.map((id) => budgetSpent(db, id))),
        roster: roster.filter((r) => coders.some((c) => c.id === r.id)),
        scores: rankCandidates((await presentAgents(db, clock.now())).filter((a) => coders.some((c) => c.id === a.id))).map((c) => [c.name, c.score, c.successRate]),
        cursors: await db.execute(sql`select principal_id, room, seq from seen_cursors order by 1, 2`),
        mail: await db.execute(sql`select agent_id, message_id from run_mail_cursors order by 1`),
        audits: await Promise.all([live.task.id, open.task.id].map((id) => loadAudit(db, id, lead))),
        lessons: await requireWorkedTask(db, coders[1], old[1].task.id),
      };
    };
    const before = await readAll();
    const july = await monthRows("2026-07-01", "2026-08-01");
    const everyEventBefore = await db.execute<{ id: string; tx: string }>(sql`select id::text, tx_id::text as tx from events order by tx_id, id`);

    // The load: a human posting in the room, agents writing to each other, and workers claiming and submitting a pile of tasks.
    const loaders = [await makeAgent(undefined, "coder"), await makeAgent(undefined, "coder"), await makeAgent(undefined, "coder")];
    const pile = [];
    for (let i = 0; i < 24; i++) pile.push(await createTask(db, lead, { title: `load ${i}`, acceptanceCriteria: "done" }, clock));
    // The load's own clock moves a second a reading, so its agents stay under the rate floor; it stays in September.
    let tick = 0;
    const loadClock = { now: () => new Date(Date.parse("2026-09-09T00:00:00Z") + 1000 * tick++) };
    let running = true;
    const acknowledged: number[] = [];
    const claimed: string[] = [];
    const slowest = { ms: 0 };
    const timed = async <T>(write: () => Promise<T>) => {
      const start = performance.now();
      const result = await write();
      slowest.ms = Math.max(slowest.ms, performance.now() - start);
      return result;
    };
    const writers = [
      (async () => {
        for (let n = 0; running; n++) acknowledged.push((await timed(() => postMessage(db, lead, "general", { body: `load post ${n}` }, loadClock))).seq);
      })(),
      ...loaders.map(async (agent, i) => {
        for (let n = 0; running; n++) {
          // A gate may hold a post (the two-tier cap while the human speaks): a refusal writes nothing, and the writer goes on.
          await timed(() => postMessage(db, agent, "general", { body: `dm ${i}.${n}`, to: loaders[(i + 1) % loaders.length].name }, loadClock)).catch((error: unknown) => {
            if (!(error instanceof QuorumError)) throw error;
          });
        }
      }),
      ...loaders.map(async (agent) => {
        while (running) {
          const task = await timed(() => claimNextTask(db, agent, loadClock));
          if (!task) break;
          claimed.push(task.id);
          await timed(() => submitTask(db, agent, task.id, { fence: task.fence, summary: "done", evidence: `evidence ${task.id}` }, loadClock));
        }
      }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines: string[] = [];
    const archived = await archiveJournal(db, { before: new Date("2026-08-01T00:00:00Z"), out: archiveFolder(), clock, progress: (l) => lines.push(l) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await Promise.all(writers);
    console.log(`[retention under load] ${lines.find((l) => l.startsWith("the journal was held")) ?? ""}; slowest write while archiving: ${slowest.ms.toFixed(0)} ms`);

    expect(archived.map((m) => [m.month, m.events])).toEqual([["2026-07-01", july.length]]);
    expect(await monthRows("2026-07-01", "2026-08-01")).toEqual([]);
    // Every write the load was told succeeded is there.
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(claimed.length).toBe(24);
    const stored = await db.execute<{ seq: number }>(sql`select seq from messages where room = 'general' and seq = any(${`{${acknowledged.join(",")}}`}::bigint[])`);
    expect(stored.length).toBe(acknowledged.length);
    const submitted = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from events where kind = 'TaskSubmitted' and task_id = any(${`{${claimed.join(",")}}`}::uuid[])`,
    );
    expect(submitted[0].n).toBe(24);
    // Every fold reads what it read before the month left (the load's own agents aside).
    expect(await readAll()).toEqual(before);

    await restoreJournal(db, archived[0].file, clock);
    expect(await monthRows("2026-07-01", "2026-08-01")).toEqual(july);
    // The journal as it was before the archive: the same events, ids and transactions, in the same order.
    const everyEventAfter = await db.execute<{ id: string; tx: string }>(
      sql`select id::text, tx_id::text as tx from events where id <= ${everyEventBefore.at(-1)!.id}::bigint order by tx_id, id`,
    );
    expect([...everyEventAfter].slice(0, everyEventBefore.length)).toEqual([...everyEventBefore]);
    expect(await readAll()).toEqual(before);
  });
});

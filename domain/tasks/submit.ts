// Hands the owner's work to review with a summary and its evidence; the focus window closes.
import { and, desc, eq, sql as drizzleSql } from "drizzle-orm";
import type postgres from "postgres";
import { z } from "zod";
import { taskEvidence, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { EventPayloads, SubmittedTests } from "../journal/payloads";
import type { Principal } from "../principal";
import { pipelinedTransaction } from "../raw-sql";
import { closeFocusWindow } from "../rooms/focus";
import { fenceField, requireOwnerWrite } from "./guards";
import { lockTaskForOwner, viewAfter } from "./owner-lock";
import { textField } from "./text";
import { testResultsInput } from "../verification/test-results";
import { lockTask, readTaskView, type TaskRow, type TaskView } from "./view";

export const MAX_EVIDENCE_CHARS = 256 * 1024;

export const submitTaskInput = z.strictObject({
  fence: fenceField,
  summary: textField(4_000, "say what was done"),
  /** Test output, a diff, a link: what the approver judges the work on. */
  evidence: textField(MAX_EVIDENCE_CHARS, "submit with evidence (test output, a diff…)"),
  /** Each test's outcome in the run behind the work (what run_tests returned): the review's gate judges by it. */
  tests: testResultsInput.optional(),
});
export type SubmitTaskInput = z.infer<typeof submitTaskInput>;

/**
 * Two round trips in the common case: the task's lock, the caller's focus window and the guards'
 * facts with BEGIN; the evidence, the status, TaskSubmitted, the window's close and
 * FocusWindowClosed with COMMIT. A window whose digest holds messages (or dropped some) must be
 * flushed as a batch (DigestFlushed, MessageDelivered): that rarer case rolls back and runs the
 * general path below, which reads and writes statement by statement.
 */
export async function submitTask(db: Db, caller: Principal, taskId: string, input: SubmitTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  const t = now.toISOString();
  const fast = await pipelinedTransaction(db, async ({ sql, commitWith }): Promise<TaskView | null> => {
    const locked = await lockTaskForOwner(sql, taskId, caller.id);
    const { task, window } = locked;
    if (mayBeRetry(task, caller, input.fence)) return null; // the general path answers a retry as the first submit
    requireOwnerWrite(task, caller, input.fence, "submit");
    if (window && !window.empty) return null; // nothing written: the transaction ends, the general path runs
    const submitted: Omit<EventPayloads["TaskSubmitted"], "evidenceId"> = { number: task.number, fence: task.fence, summary: input.summary, outputCount: task.outputCount };
    const closed: EventPayloads["FocusWindowClosed"] | null = window ? { agentId: caller.id, taskId: window.taskId, reason: "task_changed", delivered: 0, dropped: 0 } : null;
    await commitWith(sql`
      with evidence as (
        insert into task_evidence (task_id, kind, author_id, fence, summary, evidence, created_at)
        values (${task.id}::uuid, 'submission', ${caller.id}::uuid, ${task.fence}::bigint, ${input.summary}::text, ${input.evidence}::text, ${t}::timestamptz)
        returning id
      ), moved as (
        update tasks set status = 'review', lease_expires_at = null, updated_at = ${t}::timestamptz, submitted_tests = ${input.tests ? JSON.stringify(input.tests) : null}::jsonb
        where id = ${task.id}::uuid
      ), submitted as (
        insert into events (kind, actor, task_id, t, data)
        select 'TaskSubmitted', ${caller.id}::uuid, ${task.id}::uuid, ${t}::timestamptz,
          ${JSON.stringify(submitted)}::jsonb || jsonb_build_object('evidenceId', evidence.id)
            ${input.tests ? sql`|| jsonb_build_object('tests', ${submissionTestsSql(sql, task.id, input.tests)})` : sql``}
        from evidence
        returning id
      ), window_closed as (
        -- A claim on another instance may have opened the window with a later clock reading than ours.
        update focus_windows set closed_at = greatest(${t}::timestamptz, opened_at) where id = ${window?.id ?? null}::uuid
      )
      -- Reading submitted orders the journal: TaskSubmitted, then FocusWindowClosed.
      insert into events (kind, actor, task_id, t, data)
      select 'FocusWindowClosed', ${caller.id}::uuid, ${window?.taskId ?? null}::uuid, ${t}::timestamptz, ${closed ? JSON.stringify(closed) : null}::jsonb
      from submitted where ${closed !== null}::boolean`);
    return viewAfter(locked, { status: "review", leaseExpiresAt: null, updatedAt: now });
  });
  return fast ?? submitWithDigest(db, caller, taskId, input, now);
}

/** The owner's own submit, under the same fence, may have landed already (its answer lost on the way). */
function mayBeRetry(task: Pick<TaskRow, "status" | "ownerId" | "fence">, caller: Principal, fence: number): boolean {
  return task.status === "review" && task.ownerId === caller.id && task.fence === fence;
}

/** Whether the task's latest submission is this one, word for word: then a retry changes nothing and answers as the first did. */
async function sameAsSubmitted(tx: Tx, task: TaskRow, caller: Principal, input: SubmitTaskInput): Promise<boolean> {
  const [latest] = await tx
    .select({ authorId: taskEvidence.authorId, fence: taskEvidence.fence, summary: taskEvidence.summary, evidence: taskEvidence.evidence })
    .from(taskEvidence)
    .where(and(eq(taskEvidence.taskId, task.id), eq(taskEvidence.kind, "submission")))
    .orderBy(desc(taskEvidence.id))
    .limit(1);
  return latest?.authorId === caller.id && latest.fence === task.fence && latest.summary === input.summary && latest.evidence === input.evidence;
}

/** The general path: the same rules, and closeFocusWindow flushes the digest as one batch. */
async function submitWithDigest(db: Db, caller: Principal, taskId: string, input: SubmitTaskInput, now: Date): Promise<TaskView> {
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    if (mayBeRetry(task, caller, input.fence) && (await sameAsSubmitted(tx, task, caller, input))) return readTaskView(tx, task.id);
    requireOwnerWrite(task, caller, input.fence, "submit");
    const [record] = await tx
      .insert(taskEvidence)
      .values({ taskId: task.id, kind: "submission", authorId: caller.id, fence: task.fence, summary: input.summary, evidence: input.evidence, createdAt: now })
      .returning({ id: taskEvidence.id });
    await tx
      .update(tasks)
      .set({ status: "review", leaseExpiresAt: null, updatedAt: now, submittedTests: input.tests ?? null })
      .where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "TaskSubmitted",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: {
        number: task.number,
        fence: task.fence,
        summary: input.summary,
        evidenceId: record.id,
        outputCount: task.outputCount,
        ...(input.tests && { tests: await submissionTests(tx, task.id, input.tests) }),
      },
    });
    await closeFocusWindow(tx, caller.id, now);
    return readTaskView(tx, task.id);
  });
}

/** What the submission's per-test results say against the task's targets and its flight's baseline (db/functions/quorum_submission_tests.sql). */
function submissionTestsSql(sql: postgres.Sql, taskId: string, tests: NonNullable<SubmitTaskInput["tests"]>) {
  return sql`quorum_submission_tests(${JSON.stringify(tests)}::jsonb,
    (select target_tests from tasks where id = ${taskId}::uuid), quorum_task_baseline(${taskId}::uuid))`;
}

async function submissionTests(tx: Tx, taskId: string, tests: NonNullable<SubmitTaskInput["tests"]>): Promise<SubmittedTests> {
  const [row] = await tx.execute<{ tests: SubmittedTests }>(
    drizzleSql`select quorum_submission_tests(${JSON.stringify(tests)}::jsonb, t.target_tests, quorum_task_baseline(t.id)) as tests
      from tasks t where t.id = ${taskId}::uuid`,
  );
  return row.tests;
}

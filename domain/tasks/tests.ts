// A task's tests: the targets it names, the per-test results behind its latest submission, and what they mean
// against its flight's baseline. The rule itself is SQL (db/functions/quorum_test_delta.sql and
// quorum_accept_refusal.sql), so the review's gate, this view and the monitor read the same verdict.
import { eq, sql } from "drizzle-orm";
import { tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { TestDelta, TestResults } from "../verification/test-results";

export interface TaskTests {
  /** The tests the task is meant to make pass ([] when none are named). */
  targets: string[];
  /** The per-test results behind the latest submission, or null (none carried any). */
  submitted: TestResults | null;
  /** Whether its flight ran the suite at the base commit: without it, every failing test that is no target counts as broken. */
  hasBaseline: boolean;
  delta: TestDelta | null;
  /** Why the tests refuse an ACCEPT now, or null. */
  refusal: string | null;
}

/** The task's tests, as its review's gate sees them. */
export async function readTaskTests(db: Executor, taskId: string): Promise<TaskTests> {
  const [row] = await db
    .select({
      targets: tasks.targetTests,
      submitted: tasks.submittedTests,
      hasBaseline: sql<boolean>`quorum_task_baseline(${tasks.id}) is not null`,
      delta: sql<TestDelta | null>`case when ${tasks.submittedTests} is null then null else quorum_test_delta(quorum_task_baseline(${tasks.id}), ${tasks.submittedTests}, ${tasks.targetTests}) end`,
      refusal: sql<string | null>`quorum_accept_refusal(quorum_task_baseline(${tasks.id}), ${tasks.submittedTests}, ${tasks.targetTests})`,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  if (!row) return { targets: [], submitted: null, hasBaseline: false, delta: null, refusal: null };
  return { targets: row.targets ?? [], submitted: (row.submitted as TestResults | null) ?? null, hasBaseline: row.hasBaseline, delta: row.delta, refusal: row.refusal };
}

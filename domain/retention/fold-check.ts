// The folds that outlive an archived month, read in the archive's own transaction before its months leave
// and again after (DESIGN §4): every budget's spend (whole, by model, and drawn directly), every owner's
// review record (the roster's success rate, reassignment's score), the team's status (its latest start and
// its model's state) and each model's failure streak (whether the Room was told). The tallies
// (./tallies.ts) keep the sums exact; the team's status and the streaks read the newest events of their
// kind, so an archive that would take one of those away is refused, naming it.
import { sql } from "drizzle-orm";
import { budgets, principals } from "../../db/schema";
import type { Tx } from "../../db/client";
import { budgetLines } from "../budgets/lines";
import { budgetsSpentDirectly } from "../budgets/spend";
import { streakOf } from "../flights/hand-back";
import { readTeamStatus } from "../flights/team-status";
import { reviewRecords } from "../tasks/review-record";

export interface FoldReading {
  /** Per budget: spent (its runs' and its descendants'), drawn directly, and tokens per model. */
  budgets: Record<string, { spent: number; direct: number; byModel: { model: string; tokens: number }[] }>;
  reviews: Record<string, { accepted: number; reviewed: number }>;
  team: unknown;
  /** Per model a run used: its failures since it last finished a run, and whether the Room heard of them. */
  streaks: Record<string, unknown>;
}

/** Reads every fold; `models` names the models to read streaks of (a second reading reads the first's, whose runs may have left). */
export async function readFolds(tx: Tx, models?: string[]): Promise<FoldReading> {
  const ids = (await tx.select({ id: budgets.id }).from(budgets)).map((b) => b.id);
  const lines = await budgetLines(tx, ids);
  const direct = await budgetsSpentDirectly(tx, ids);
  const reading: FoldReading = { budgets: {}, reviews: {}, team: await readTeamStatus(tx), streaks: {} };
  for (const id of ids) {
    const line = lines.get(id);
    reading.budgets[id] = { spent: line?.spent ?? 0, direct: direct.get(id) ?? 0, byModel: line?.byModel ?? [] };
  }
  const owners = (await tx.select({ id: principals.id }).from(principals)).map((p) => p.id);
  for (const [owner, record] of await reviewRecords(tx, owners)) reading.reviews[owner] = record;
  const named =
    models ?? [...(await tx.execute<{ model: string }>(sql`select distinct data->>'model' as model from events where kind = 'RunStarted' and data ? 'model'`))].map((r) => r.model);
  for (const model of named) reading.streaks[model] = await streakOf(tx, model);
  return reading;
}

/** What would differ between two readings, in words (empty: every fold stays as it was). */
export async function foldChanges(tx: Tx, before: FoldReading, after: FoldReading): Promise<string[]> {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const changes: string[] = [];
  const labels = new Map((await tx.select({ id: budgets.id, label: budgets.label }).from(budgets)).map((b) => [b.id, b.label]));
  for (const [id, was] of Object.entries(before.budgets)) {
    const now = after.budgets[id];
    if (!same(was, now)) changes.push(`the spend of budget “${labels.get(id) || id}” would read ${now?.spent ?? 0} tokens instead of ${was.spent}`);
  }
  const names = new Map((await tx.select({ id: principals.id, name: principals.name }).from(principals)).map((p) => [p.id, p.name]));
  for (const owner of new Set([...Object.keys(before.reviews), ...Object.keys(after.reviews)])) {
    if (!same(before.reviews[owner], after.reviews[owner])) changes.push(`${names.get(owner) ?? owner}'s review record (success rate, reassignment score) would change`);
  }
  if (!same(before.team, after.team)) {
    changes.push("the team's status (its latest start, its model's latest answers) is read from these months: archive once the team has started and worked since");
  }
  for (const [model, was] of Object.entries(before.streaks)) {
    if (!same(was, after.streaks[model])) changes.push(`model ${model}'s current failing streak (whether the Room was told) began in these months`);
  }
  return changes;
}

// Budgets: an allowance per agent, subdividable; spend is always the sum of the journal's debits.
// A sub-budget's debits name it and every ancestor, so a child halts on its own share while its
// parent and siblings stand untouched, and the children of one parent never promise more than it has.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { budgets, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { childrenTotal, lockBudget, requireFunder, requireRoomUnder, type Budget } from "./allocation";

export const createBudgetInput = z.strictObject({
  ownerId: z.uuid(),
  allowance: z.number().int().min(0),
  parentId: z.uuid().optional(),
  label: z.string().trim().max(200).optional(),
});
export type CreateBudgetInput = z.infer<typeof createBudgetInput>;

export async function createBudget(db: Db, caller: Principal | null, input: CreateBudgetInput, clock: Clock): Promise<Budget> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [owner] = await tx.select().from(principals).where(eq(principals.id, input.ownerId));
    if (!owner) throw fail.notFound("budget", `no principal ${input.ownerId} to fund`);
    if (owner.kind !== "agent") throw fail.invalid("budget", "budgets fund agents");
    // Locking the parent serialises its subdivision: two children cannot both take its last tokens.
    const parent = input.parentId ? await lockBudget(tx, input.parentId) : null;
    requireFunder(caller, parent);
    if (parent) requireRoomUnder(parent, await childrenTotal(tx, parent.id), input.allowance);
    const [row] = await tx
      .insert(budgets)
      .values({ ownerId: owner.id, parentId: parent?.id ?? null, label: input.label ?? "", allowance: input.allowance, createdBy: caller?.id ?? null, createdAt: now })
      .returning();
    await appendEvent(tx, {
      kind: "BudgetCreated",
      actor: caller?.id ?? null,
      t: now,
      data: { budgetId: row.id, ownerId: row.ownerId, parentId: row.parentId, label: row.label, allowance: row.allowance },
    });
    return row;
  });
}

/** An agent's first budget (the one the harness funds it with), or null. */
export async function firstBudgetOf(db: Db, ownerId: string): Promise<Budget | null> {
  const [row] = await db.select().from(budgets).where(eq(budgets.ownerId, ownerId)).orderBy(budgets.createdAt).limit(1);
  return row ?? null;
}

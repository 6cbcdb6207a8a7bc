// The built-in team's members: an agent principal per role, each funded with its own budget.
import { eq } from "drizzle-orm";
import { principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { createBudget, firstBudgetOf } from "../budgets/create";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { createAgent } from "../principals/create-principal";
import { toPrincipal, type Principal } from "../principals/types";

export interface TeamMember {
  principal: Principal;
  budgetId: string;
}

/** Finds or creates the agent named after `role` and its budget (funded with `allowance` tokens). */
export async function ensureTeamMember(db: Db, role: string, allowance: number, clock: Clock): Promise<TeamMember> {
  const [row] = await db.select().from(principals).where(eq(principals.name, role));
  if (row && row.kind !== "agent") throw fail.conflict("team", "name_taken", `'${role}' is taken by a ${row.kind}; the built-in team needs that name`);
  const principal = row ? toPrincipal(row) : await createAgent(db, null, { name: role, role }, clock);
  const budget = (await firstBudgetOf(db, principal.id)) ?? (await createBudget(db, null, { ownerId: principal.id, allowance, label: `${role} allowance` }, clock));
  return { principal: { id: principal.id, kind: principal.kind, name: principal.name, role: principal.role }, budgetId: budget.id };
}

/** Journals that a worker now hosts these roles, and how they think (`scripted` or the model's name). */
export async function announceTeamStarted(db: Db, roles: readonly string[], mode: string, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    await appendEvent(tx, { kind: "TeamStarted", actor: null, t: clock.now(), data: { roles: [...roles], mode } });
  });
}

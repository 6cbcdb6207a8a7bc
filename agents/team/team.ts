// The built-in team: four agent principals, each with its own token budget.
import { eq } from "drizzle-orm";
import { budgets, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../../server/clock";
import { createAgent } from "../../server/principals/create-principal";
import { toPrincipal, type Principal } from "../../server/principals/types";
import { createBudget } from "../budget";

export const ROLES = ["orchestrator", "coder", "reviewer", "tester"] as const;
export type Role = (typeof ROLES)[number];

/** Tokens per role: enough for the demo several times over, small enough to notice a runaway. */
export const ALLOWANCES: Record<Role, number> = { orchestrator: 60_000, coder: 200_000, reviewer: 60_000, tester: 60_000 };

export interface Member {
  role: Role;
  principal: Principal;
  budgetId: string;
}

export type Team = Record<Role, Member>;

/** Finds or creates the team's agents (named after their roles) and their budgets. */
export async function ensureTeam(db: Db, clock: Clock): Promise<Team> {
  const team = {} as Team;
  for (const role of ROLES) {
    let [row] = await db.select().from(principals).where(eq(principals.name, role));
    if (!row) {
      await createAgent(db, null, { name: role, role });
      [row] = await db.select().from(principals).where(eq(principals.name, role));
    }
    if (row.kind !== "agent") throw new Error(`'${role}' is taken by a ${row.kind}; the built-in team needs that name`);
    let [budget] = await db.select().from(budgets).where(eq(budgets.ownerId, row.id)).limit(1);
    budget ??= await createBudget(db, null, { ownerId: row.id, allowance: ALLOWANCES[role], label: `${role} allowance` }, clock);
    team[role] = { role, principal: toPrincipal(row), budgetId: budget.id };
  }
  return team;
}

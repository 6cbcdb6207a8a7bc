// The built-in team: four agent principals, each with its own token budget.
import type { Db } from "../../db/client";
import type { Clock } from "../../server/clock";
import { ensureTeamMember } from "../../server/flights/team";
import type { Principal } from "../../server/principals/types";

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
  for (const role of ROLES) team[role] = { role, ...(await ensureTeamMember(db, role, ALLOWANCES[role], clock)) };
  return team;
}

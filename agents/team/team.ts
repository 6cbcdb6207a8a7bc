// The built-in team: an orchestrator, a reviewer, a tester and one or more coders (QUORUM_CODERS), each an
// agent principal with its own token budget.
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { ensureTeamMember } from "../../domain/flights/team-members";
import type { Principal } from "../../domain/principal";

export const ROLES = ["orchestrator", "coder", "reviewer", "tester"] as const;
export type Role = (typeof ROLES)[number];

/** Tokens per member for runs outside any flight (a flight's runs draw on the flight's allowance). */
export const ALLOWANCES: Record<Role, number> = { orchestrator: 60_000, coder: 200_000, reviewer: 60_000, tester: 60_000 };

export interface Member {
  role: Role;
  principal: Principal;
  budgetId: string;
}

export interface Team {
  orchestrator: Member;
  reviewer: Member;
  tester: Member;
  /** At least one: `coder`, then `coder-2`, `coder-3`, … — each takes its own task, in its own worktree. */
  coders: Member[];
}

/** The n-th coder's name (1-based): `coder` stays the first, so a team from before several coders keeps its history. */
export function coderName(n: number): string {
  return n === 1 ? "coder" : `coder-${n}`;
}

/** Every member, coders in order. */
export function membersOf(team: Team): Member[] {
  return [team.orchestrator, ...team.coders, team.reviewer, team.tester];
}

/** Finds or creates the team's agents (named after their roles) and their budgets. */
export async function ensureTeam(db: Db, clock: Clock, coders = 1): Promise<Team> {
  const member = async (role: Role, name: string = role): Promise<Member> => ({ role, ...(await ensureTeamMember(db, name, role, ALLOWANCES[role], clock)) });
  const team: Team = { orchestrator: await member("orchestrator"), reviewer: await member("reviewer"), tester: await member("tester"), coders: [] };
  for (let n = 1; n <= Math.max(1, coders); n++) team.coders.push(await member("coder", coderName(n)));
  return team;
}

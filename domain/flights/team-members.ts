// The built-in team's members: an agent principal per role, each funded with its own budget.
import { eq } from "drizzle-orm";
import { principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { createBudget, firstBudgetOf } from "../budgets/create";
import { fail, QuorumError } from "../errors";
import { appendEvent } from "../journal/append";
import { createAgent } from "../principals/create-principal";
import { toPrincipal, type Principal } from "../principal";

export interface TeamMember {
  principal: Principal;
  budgetId: string;
}

/** Finds or creates the agent `name` (of `role`) and its budget (funded with `allowance` tokens). */
export async function ensureTeamMember(db: Db, name: string, role: string, allowance: number, clock: Clock): Promise<TeamMember> {
  const [row] = await db.select().from(principals).where(eq(principals.name, name));
  if (row && row.kind !== "agent") throw fail.conflict("team", "name_taken", `'${name}' is taken by a ${row.kind}; the built-in team needs that name`);
  const principal = row ? toPrincipal(row) : await createAgent(db, null, { name, role }, clock).catch((error: unknown) => createdMeanwhile(db, name, error));
  const budget = (await firstBudgetOf(db, principal.id)) ?? (await createBudget(db, null, { ownerId: principal.id, allowance, label: `${name} allowance` }, clock));
  return { principal: { id: principal.id, kind: principal.kind, name: principal.name, role: principal.role }, budgetId: budget.id };
}

/**
 * Journals that a worker now hosts these roles, how the team thinks (`scripted` or the orchestrator's model,
 * which flights record), and each hosted member's own model by name (QUORUM_MODEL_<ROLE> may differ per role).
 */
export async function announceTeamStarted(db: Db, roles: readonly string[], mode: string, clock: Clock, models?: Record<string, string>): Promise<void> {
  await db.transaction(async (tx) => {
    await appendEvent(tx, { kind: "TeamStarted", actor: null, t: clock.now(), data: { roles: [...roles], mode, ...(models ? { models } : {}) } });
  });
}

/** Two workers starting at once both create the member: the one that lost the race takes the winner's. */
async function createdMeanwhile(db: Db, name: string, error: unknown): Promise<Principal> {
  const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  const [row] = await db.select().from(principals).where(eq(principals.name, name));
  if ((code === "23505" || (error instanceof QuorumError && error.code === "name_taken")) && row?.kind === "agent") return toPrincipal(row);
  throw error;
}

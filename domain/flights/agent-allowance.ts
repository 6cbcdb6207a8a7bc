// Flights an agent starts: none unless a human allowed it, and then only up to the tokens the human gave for
// them in all (DESIGN §13). A flight spends real money on a repository of this machine; an agent's key alone
// must not be able to start one, nor to start them without end.
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { flightAllowances } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { lockAgent } from "../principals/keys";

/** What a human sets: the tokens the agent's flights may take in all, counted at each launch; 0 stops it. */
export const setFlightAllowanceInput = z.strictObject({
  tokens: z.number().int().min(0).max(1_000_000_000),
});
export type SetFlightAllowanceInput = z.infer<typeof setFlightAllowanceInput>;

export interface FlightAllowanceView {
  agentId: string;
  /** Tokens the flights this agent starts may take in all; 0: it starts none. */
  tokens: number;
  /** What the flights it started took at launch (their allowances). */
  committed: number;
  /** What a next flight may take at most. */
  left: number;
}

function viewOf(agentId: string, row: { tokens: number; committed: number } | undefined): FlightAllowanceView {
  const tokens = row?.tokens ?? 0;
  const committed = row?.committed ?? 0;
  return { agentId, tokens, committed, left: Math.max(0, tokens - committed) };
}

export async function readFlightAllowance(db: Executor, agentId: string): Promise<FlightAllowanceView> {
  const [row] = await db.select().from(flightAllowances).where(eq(flightAllowances.agentId, agentId));
  return viewOf(agentId, row);
}

/** A human sets (or with 0 ends) an agent's allowance for starting flights. `agent` is its id or name. */
export async function setFlightAllowance(db: Db, caller: Principal, agent: string, input: SetFlightAllowanceInput, clock: Clock): Promise<FlightAllowanceView> {
  if (caller.kind !== "human") throw fail.forbidden("agent", "only humans allow an agent to start flights");
  const now = clock.now();
  return db.transaction(async (tx) => {
    const target = await lockAgent(tx, agent);
    const [before] = await tx.select().from(flightAllowances).where(eq(flightAllowances.agentId, target.id)).for("update");
    const [row] = await tx
      .insert(flightAllowances)
      .values({ agentId: target.id, tokens: input.tokens, setBy: caller.id, updatedAt: now })
      .onConflictDoUpdate({ target: flightAllowances.agentId, set: { tokens: input.tokens, setBy: caller.id, updatedAt: now } })
      .returning();
    await appendEvent(tx, {
      kind: "FlightAllowanceSet",
      actor: caller.id,
      t: now,
      data: { agentId: target.id, tokens: row.tokens, previous: before?.tokens ?? 0, committed: row.committed },
    });
    return viewOf(target.id, row);
  });
}

function refusal(agent: Principal, view: FlightAllowanceView, asked: number) {
  if (view.tokens === 0) {
    return fail.forbidden("flight", `${agent.name} may not start flights: a human allows it on the agent's page (Flights), with the tokens its flights may take`);
  }
  return fail.forbidden(
    "flight",
    `${agent.name}'s flights may take ${view.tokens} tokens in all and ${view.committed} are taken: ${view.left} are left, and this flight asks for ${asked}; a human raises the allowance on the agent's page`,
  );
}

/** The rule, once: a flight of `allowance` tokens fits what is left of the agent's allowance, or it is refused (403). */
function requireRoom(agent: Principal, view: FlightAllowanceView, allowance: number): void {
  if (view.left < allowance) throw refusal(agent, view, allowance);
}

/** Refuses before anything else is looked at when `agent` may not start a flight of `allowance` tokens. */
export async function requireFlightAllowance(db: Executor, agent: Principal, allowance: number): Promise<void> {
  requireRoom(agent, await readFlightAllowance(db, agent.id), allowance);
}

/** In the launch's transaction: takes `allowance` from the agent's, its row locked (two launches cannot both take the last tokens). */
export async function commitAgentFlight(tx: Tx, agent: Principal, allowance: number): Promise<void> {
  const [row] = await tx.select().from(flightAllowances).where(eq(flightAllowances.agentId, agent.id)).for("update");
  requireRoom(agent, viewOf(agent.id, row), allowance);
  await tx
    .update(flightAllowances)
    .set({ committed: sql`${flightAllowances.committed} + ${allowance}` })
    .where(eq(flightAllowances.agentId, agent.id));
}

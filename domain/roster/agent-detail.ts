// One agent as its page shows it: its roster numbers, its budgets, its recent gate rejections.
import { and, desc, eq } from "drizzle-orm";
import { events, principals } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import { readAgentSpend } from "../bill/agent-spend";
import type { BudgetView } from "../bill/line-views";
import type { PriceMap } from "../bill/prices";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { rosterEntryOf } from "../principals/list-principals";
import { spendOf, workOf, type AgentRow } from "./roster";
import { readFlightAllowance, type FlightAllowanceView } from "../flights/agent-allowance";
import { payloadOf } from "../journal/payloads";
import { gateRejectionMessage } from "../rooms/gate-refusal";
import { eventsVisibleTo } from "../journal/visibility";
import type { Principal } from "../principal";

export interface AgentGateRejection {
  eventId: number;
  t: string;
  room: string;
  gate: string;
  reason: string;
  message: string;
}

export interface AgentDetail {
  agent: AgentRow;
  budgets: BudgetView[];
  /** What a human allows it to start flights with (all zero: it starts none). */
  flightAllowance: FlightAllowanceView;
  gateRejections: AgentGateRejection[];
}

export async function requireAgent(db: Executor, agentId: string) {
  const [row] = await db.select().from(principals).where(eq(principals.id, agentId));
  if (row?.kind !== "agent") throw fail.notFound("agent", `no agent ${agentId}`);
  return row;
}

/** `viewer` sees the agent's refused direct messages only if it was their sender or recipient (or is human). */
export async function getAgentDetail(db: Db, clock: Clock, prices: PriceMap, agentId: string, viewer: Principal): Promise<AgentDetail> {
  const row = await requireAgent(db, agentId);
  const work = (await workOf(db, [agentId], clock.now())).get(agentId)!;
  const spend = await readAgentSpend(db, prices);
  const bill = spend.agents.find((a) => a.agentId === agentId);
  const rejections = await db
    .select({ id: events.id, t: events.t, kind: events.kind, data: events.data })
    .from(events)
    .where(and(eq(events.actor, agentId), eq(events.kind, "GateRejected"), eventsVisibleTo(viewer)))
    .orderBy(desc(events.id))
    .limit(10);
  const entry = (await rosterEntryOf(db, clock, row.id))!;
  return {
    agent: {
      ...entry,
      ...work,
      ...spendOf(bill),
    },
    budgets: spend.budgets.filter((b) => b.ownerId === agentId),
    flightAllowance: await readFlightAllowance(db, agentId),
    gateRejections: rejections.map((e) => {
      const d = payloadOf(e, "GateRejected");
      return { eventId: e.id, t: e.t.toISOString(), room: d.room, gate: d.gate, reason: d.reason, message: gateRejectionMessage(d) };
    }),
  };
}

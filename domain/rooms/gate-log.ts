// The room's recent gate rejections, read from the journal: what the gate strip shows.
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import type { Principal } from "../principal";
import { getRoom } from "./rooms";
import { gateRejectionMessage, type GateName } from "./gate-refusal";
import { payloadOf } from "../journal/payloads";
import { eventsVisibleTo } from "../journal/visibility";

export const gateLogQuery = z.strictObject({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type GateLogQuery = z.infer<typeof gateLogQuery>;

export interface GateRejection {
  id: number;
  t: string;
  room: string;
  gate: GateName;
  reason: string;
  message: string;
  senderId: string;
  senderName: string;
  bodyPreview: string;
  figures: Record<string, unknown>;
}

/** Newest first; `next` pages further back. A refused direct message shows only to its two ends (and humans). */
export async function listGateRejections(db: Executor, viewer: Principal, room: string, query: GateLogQuery = {}): Promise<Page<GateRejection>> {
  await getRoom(db, room);
  const limit = query.limit ?? 20;
  const rows = await db
    .select({ id: events.id, t: events.t, kind: events.kind, data: events.data })
    .from(events)
    .where(
      and(eq(events.kind, "GateRejected"), sql`${events.data}->>'room' = ${room}`, query.before !== undefined ? lt(events.id, query.before) : undefined, eventsVisibleTo(viewer)),
    )
    .orderBy(desc(events.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map((row) => {
    const { id, t } = row;
    const d = payloadOf(row, "GateRejected");
    return {
      id,
      t: t.toISOString(),
      room: d.room,
      gate: d.gate,
      reason: d.reason,
      message: gateRejectionMessage(d),
      senderId: d.sender,
      senderName: d.senderName,
      bodyPreview: d.bodyPreview,
      figures: d.figures,
    };
  });
  return rows.length > limit ? { items, next: items[items.length - 1].id } : { items };
}

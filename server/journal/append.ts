// Appends to the journal inside the caller's transaction; a trigger NOTIFYs listeners at commit.
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { EventKind } from "./kinds";

export interface NewEvent {
  kind: EventKind;
  actor?: string | null;
  runId?: string | null;
  taskId?: string | null;
  turn?: number | null;
  data?: Record<string, unknown>;
  t?: Date;
}

export type JournalEvent = typeof events.$inferSelect;

export async function appendEvent(tx: Executor, event: NewEvent): Promise<JournalEvent> {
  const [row] = await tx
    .insert(events)
    .values({
      kind: event.kind,
      actor: event.actor ?? null,
      runId: event.runId ?? null,
      taskId: event.taskId ?? null,
      turn: event.turn ?? null,
      data: event.data ?? {},
      ...(event.t ? { t: event.t } : {}),
    })
    .returning();
  return row;
}

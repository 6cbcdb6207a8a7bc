// The room's roster: who is present (seen in the last 2 minutes), with roles, and who is focusing.
import { and, count, eq, isNull } from "drizzle-orm";
import { digestEntries, focusWindows, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Clock } from "../clock";
import { listPrincipals, type RosterEntry } from "../principals/list-principals";
import { getRoom } from "./rooms";

export interface PresenceEntry extends RosterEntry {
  /** The agent's open focus window: its task, since when, and how many messages wait in its digest. */
  focusing: { taskId: string; taskTitle: string | null; taskNumber: number | null; since: string; queued: number; dropped: number } | null;
}

export async function listRoomPresence(db: Executor, room: string, clock: Clock): Promise<PresenceEntry[]> {
  await getRoom(db, room);
  const roster = (await listPrincipals(db, clock)).filter((p) => p.kind !== "system");
  const windows = await db
    .select({
      agentId: focusWindows.agentId,
      taskId: focusWindows.taskId,
      openedAt: focusWindows.openedAt,
      dropped: focusWindows.dropped,
      taskTitle: tasks.title,
      taskNumber: tasks.number,
    })
    .from(focusWindows)
    .leftJoin(tasks, eq(tasks.id, focusWindows.taskId))
    .where(isNull(focusWindows.closedAt));
  const queued = await db
    .select({ agentId: digestEntries.agentId, queued: count() })
    .from(digestEntries)
    .innerJoin(focusWindows, and(eq(focusWindows.id, digestEntries.windowId), isNull(focusWindows.closedAt)))
    .where(eq(digestEntries.state, "queued"))
    .groupBy(digestEntries.agentId);
  const queuedBy = new Map(queued.map((q) => [q.agentId, q.queued]));
  const windowBy = new Map(windows.map((w) => [w.agentId, w]));
  return roster.map((person) => {
    const w = windowBy.get(person.id);
    return {
      ...person,
      focusing: w
        ? {
            taskId: w.taskId,
            taskTitle: w.taskTitle,
            taskNumber: w.taskNumber,
            since: w.openedAt.toISOString(),
            queued: queuedBy.get(person.id) ?? 0,
            dropped: w.dropped,
          }
        : null,
    };
  });
}

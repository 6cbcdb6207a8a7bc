// Fans out the journal's NOTIFYs to in-process subscribers over one LISTEN connection.
import type postgres from "postgres";

export const EVENTS_CHANNEL = "quorum_events";

/** What a trigger announces for each committed event; readers fetch the rest if they need it. */
export interface EventNotice {
  id: number;
  kind: string;
  actor: string | null;
  taskId: string | null;
  runId: string | null;
  room: string | null;
}

/** The notice the trigger would have sent for an event read back from the table (catch-up after a reconnect). */
export function noticeOf(e: { id: number; kind: string; actor: string | null; taskId: string | null; runId: string | null; data: unknown }): EventNotice {
  const room = (e.data as { room?: unknown } | null)?.room;
  return { id: e.id, kind: e.kind, actor: e.actor, taskId: e.taskId, runId: e.runId, room: typeof room === "string" ? room : null };
}

type Subscriber = (notice: EventNotice) => void;

/** Subscribes to commit notifications; resolves once listening, returns the unsubscribe. */
export type Subscribe = (subscriber: Subscriber) => Promise<() => void>;

interface Hub {
  sql: postgres.Sql;
  subscribers: Set<Subscriber>;
  listening: Promise<unknown>;
}

const holder = globalThis as unknown as { __quorumHub?: Hub };

/**
 * Subscribes to every committed event. The promise resolves once LISTEN is active, so nothing
 * committed after it is missed; call the returned function to unsubscribe.
 */
export async function subscribeToEvents(sql: postgres.Sql, subscriber: Subscriber): Promise<() => void> {
  if (!holder.__quorumHub || holder.__quorumHub.sql !== sql) {
    const subscribers = new Set<Subscriber>();
    const listening = sql.listen(EVENTS_CHANNEL, (payload) => {
      const notice = JSON.parse(payload) as EventNotice;
      for (const deliver of subscribers) deliver(notice);
    });
    holder.__quorumHub = { sql, subscribers, listening };
  }
  const hub = holder.__quorumHub;
  hub.subscribers.add(subscriber);
  await hub.listening;
  return () => hub.subscribers.delete(subscriber);
}

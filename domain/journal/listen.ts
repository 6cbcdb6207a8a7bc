// Fans out the journal's committed events to in-process subscribers, fed by one announcer per process
// that reads the journal's tail (./announcer.ts).
//
// Why not LISTEN/NOTIFY (migration 0023): PostgreSQL serialises the commits of notifying transactions on
// one database-wide lock held through the WAL flush, so a NOTIFY per event capped every writer at about one
// connection's commit rate (figures: bench/results/notebook.md). The price is freshness and a poll: each
// process reads the tail every 10 ms within 500 ms of the last event, backing off to 250 ms when quiet,
// only while it has subscribers. An event appears once its transaction and every older one in flight have
// ended (commit-safe order), so a long transaction in Quorum's database holds the announcements back for
// its length; NOTIFY did not.
import type postgres from "postgres";
import { type Announcer, type AnnouncerHealth, type EventNotice, startAnnouncer } from "./announcer";

export type { AnnouncerHealth, EventNotice };

/** The notice the announcer would have sent for an event read back from the table (catch-up after a reconnect). */
export function noticeOf(e: { id: number; kind: string; actor: string | null; taskId: string | null; runId: string | null; data: unknown }): EventNotice {
  const room = (e.data as { room?: unknown } | null)?.room;
  return { id: e.id, kind: e.kind, actor: e.actor, taskId: e.taskId, runId: e.runId, room: typeof room === "string" ? room : null };
}

type Subscriber = (notice: EventNotice) => void;

/**
 * Subscribes to commit notifications; resolves once the announcer has placed its cursor, returns the
 * unsubscribe. `onGap` is told when notices may have been skipped (the announcer fell behind and jumped
 * to the journal's tail, or a read of it hung): a subscriber that must miss nothing reads the journal
 * from its last event (the SSE stream ends, and its client reconnects with Last-Event-ID).
 */
export type Subscribe = (subscriber: Subscriber, onGap?: () => void) => Promise<() => void>;

interface Hub {
  sql: postgres.Sql;
  subscribers: Set<Subscriber>;
  gapWatchers: Set<() => void>;
  /** Running while there are subscribers; stopped (and its cursor forgotten) when the last one leaves. */
  announcer?: Announcer;
}

const holder = globalThis as unknown as { __quorumHub?: Hub; __quorumAnnouncerGaps?: number };

function hubFor(sql: postgres.Sql): Hub {
  if (holder.__quorumHub?.sql === sql) return holder.__quorumHub;
  holder.__quorumHub?.announcer?.stop();
  const hub: Hub = { sql, subscribers: new Set(), gapWatchers: new Set() };
  holder.__quorumHub = hub;
  return hub;
}

function ensureAnnouncer(hub: Hub): Announcer {
  if (hub.announcer) return hub.announcer;
  const announcer = startAnnouncer(
    hub.sql,
    (notices) => {
      for (const notice of notices) for (const deliver of hub.subscribers) deliver(notice);
    },
    () => {
      holder.__quorumAnnouncerGaps = (holder.__quorumAnnouncerGaps ?? 0) + 1;
      for (const watcher of hub.gapWatchers) watcher();
    },
  );
  hub.announcer = announcer;
  // A start that failed (the database away) is forgotten, so the next subscriber tries again.
  announcer.ready.catch(() => {
    if (hub.announcer === announcer) hub.announcer = undefined;
  });
  return announcer;
}

function leave(hub: Hub, subscriber: Subscriber, onGap?: () => void) {
  hub.subscribers.delete(subscriber);
  if (onGap) hub.gapWatchers.delete(onGap);
  if (hub.subscribers.size === 0) {
    hub.announcer?.stop();
    hub.announcer = undefined;
  }
}

/**
 * Subscribes to every committed event. The promise resolves once the announcer's cursor is placed, so
 * nothing committed after it is missed; call the returned function to unsubscribe.
 */
export async function subscribeToEvents(sql: postgres.Sql, subscriber: Subscriber, onGap?: () => void): Promise<() => void> {
  const hub = hubFor(sql);
  hub.subscribers.add(subscriber);
  if (onGap) hub.gapWatchers.add(onGap);
  try {
    await ensureAnnouncer(hub).ready;
  } catch (error) {
    leave(hub, subscriber, onGap);
    throw error;
  }
  return () => leave(hub, subscriber, onGap);
}

/** This process's announcer's health, or null while it has no subscribers (no announcer runs then). */
export function announcerHealth(): AnnouncerHealth | null {
  return holder.__quorumHub?.announcer?.health ?? null;
}

/** How many times this process's announcer told its subscribers of a gap (it fell behind, or a read hung). */
export function announcerGaps(): number {
  return holder.__quorumAnnouncerGaps ?? 0;
}

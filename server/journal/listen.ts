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

/**
 * Subscribes to commit notifications; resolves once listening, returns the unsubscribe. `onGap` is told
 * when notices may have been lost (the LISTEN connection dropped and came back, or went silent): a
 * subscriber that must miss nothing reads the journal from its last event (the SSE stream ends, and its
 * client reconnects with Last-Event-ID).
 */
export type Subscribe = (subscriber: Subscriber, onGap?: () => void) => Promise<() => void>;

/** A ping through the database every few seconds proves the LISTEN connection still hears. */
const PING_CHANNEL = "quorum_events_ping";
const PING_MS = 3_000;
const DEAF_AFTER_MS = 3 * PING_MS;

interface Hub {
  sql: postgres.Sql;
  subscribers: Set<Subscriber>;
  gapWatchers: Set<() => void>;
  listening: Promise<unknown>;
  pinger?: ReturnType<typeof setInterval>;
}

const holder = globalThis as unknown as { __quorumHub?: Hub };

/** One LISTEN that can be dropped and made again (postgres.js gives up a channel whose re-LISTEN failed). */
function channel(sql: postgres.Sql, name: string, onNotify: (payload: string) => void, onListen?: () => void) {
  let current: Promise<{ unlisten: () => Promise<void> } | null> = sql.listen(name, onNotify, onListen);
  let renewing = false;
  return {
    first: current,
    /** UNLISTEN (a write that meets a dead socket's reset, so postgres.js reconnects), then LISTEN again. */
    renew() {
      if (renewing) return;
      renewing = true;
      const previous = current;
      current = (async () => {
        await (await previous.catch(() => null))?.unlisten().catch(() => {});
        return sql.listen(name, onNotify, onListen);
      })()
        .catch(() => null)
        .finally(() => {
          renewing = false;
        });
    },
  };
}

function startHub(sql: postgres.Sql): Hub {
  const hub: Hub = { sql, subscribers: new Set(), gapWatchers: new Set(), listening: Promise.resolve() };
  const gap = () => {
    for (const watcher of hub.gapWatchers) watcher();
  };
  let listened = false;
  let heard = Date.now();
  // postgres.js calls the last argument after every LISTEN: the first, and each after a lost connection.
  const events = channel(
    sql,
    EVENTS_CHANNEL,
    (payload) => {
      const notice = JSON.parse(payload) as EventNotice;
      for (const deliver of hub.subscribers) deliver(notice);
    },
    () => {
      if (listened) gap();
      listened = true;
      heard = Date.now();
    },
  );
  hub.listening = events.first;
  // After a restart of Postgres, postgres.js re-LISTENs once; if the server is not back yet, the channel is
  // dropped without a word. And a host cut off while Postgres restarted keeps a dead socket nothing writes
  // to. Either way no notice comes again: unanswered pings tell the subscribers, and LISTEN is made anew.
  const ping = channel(sql, PING_CHANNEL, () => {
    heard = Date.now();
  });
  hub.pinger = setInterval(() => {
    if (hub.subscribers.size === 0) heard = Date.now();
    else if (Date.now() - heard > DEAF_AFTER_MS) {
      heard = Date.now();
      gap();
      events.renew();
      ping.renew();
    }
    void sql`select pg_notify(${PING_CHANNEL}, '')`.catch(() => {});
  }, PING_MS);
  hub.pinger.unref();
  return hub;
}

/**
 * Subscribes to every committed event. The promise resolves once LISTEN is active, so nothing
 * committed after it is missed; call the returned function to unsubscribe.
 */
export async function subscribeToEvents(sql: postgres.Sql, subscriber: Subscriber, onGap?: () => void): Promise<() => void> {
  if (!holder.__quorumHub || holder.__quorumHub.sql !== sql) {
    clearInterval(holder.__quorumHub?.pinger);
    holder.__quorumHub = startHub(sql);
  }
  const hub = holder.__quorumHub;
  hub.subscribers.add(subscriber);
  if (onGap) hub.gapWatchers.add(onGap);
  await hub.listening;
  return () => {
    hub.subscribers.delete(subscriber);
    if (onGap) hub.gapWatchers.delete(onGap);
  };
}

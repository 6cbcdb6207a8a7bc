// Announces this process's view of the journal: one loop per process reads the events committed since
// the last ones it announced and hands them to the subscribers (./listen.ts). Writers do not NOTIFY
// (migration 0023); the journal itself is the channel, so every app process on the shared database
// hears every event, whoever wrote it.
import type postgres from "postgres";

/** What the announcer tells of each committed event; readers fetch the rest if they need it. */
export interface EventNotice {
  id: number;
  kind: string;
  actor: string | null;
  taskId: string | null;
  runId: string | null;
  room: string | null;
}

export interface AnnouncerOptions {
  /** The pause after a read that found events: the next one is likely close behind. */
  busyMs: number;
  /** How long after the last event the pace stays at `busyMs` before it backs off. */
  hotMs: number;
  /** The longest pause, reached after a quiet spell (each empty read past `hotMs` waits `backoff` times longer). */
  idleMs: number;
  backoff: number;
  /** Events per read; a full page is followed at once by the next. */
  pageSize: number;
  /** Pages read without pausing before the announcer counts as fallen behind and skips to the tail. */
  maxPages: number;
  /** A read unanswered for this long (a dead socket) is abandoned and the subscribers told of a gap. */
  stuckMs: number;
}

export const ANNOUNCER_DEFAULTS: AnnouncerOptions = { busyMs: 10, hotMs: 500, idleMs: 250, backoff: 1.5, pageSize: 500, maxPages: 20, stuckMs: 9_000 };

export interface Announcer {
  /** Resolves once the tail is placed: every event that commits after it will be announced. */
  ready: Promise<void>;
  stop(): void;
  /** How it keeps up, for /metrics (domain/metrics/): read, never reset. */
  readonly health: AnnouncerHealth;
}

export interface AnnouncerHealth {
  /** When its last read of the tail answered (epoch ms), or null before the first. */
  lastReadAt: number | null;
  /** How old the newest event of its last batch was when announced (ms from the event's `t`: its transaction's time). */
  lastDelayMs: number | null;
  /** When it announced that batch (epoch ms), or null before the first. */
  lastBatchAt: number | null;
}

interface Cursor {
  tx: string;
  id: number;
}

interface Row {
  id: string;
  kind: string;
  actor: string | null;
  task_id: string | null;
  run_id: string | null;
  room: string | null;
  tx: string;
  /** The event's `t` in epoch milliseconds. */
  at: number;
}

/** Where the unread tail begins: every transaction older than the horizon has finished. */
async function tail(sql: postgres.Sql): Promise<Cursor> {
  const [row] = await sql<{ h: string }[]>`select quorum_settle_horizon()::text as h`;
  return { tx: row.h, id: 0 };
}

/**
 * The committed events after `cursor` whose transaction is older than the oldest one still in flight
 * in this database (quorum_settle_horizon, migration 0017), in (tx_id, id) order on events_settled_idx —
 * the order listJournal pages in. An event of a transaction that has not committed yet has a tx_id at
 * or above the horizon, so it is never passed over: it comes in a later read, after the cursor.
 */
function settledAfter(sql: postgres.Sql, cursor: Cursor, limit: number) {
  return sql<Row[]>`
    select e.id::text as id, e.kind, e.actor, e.task_id, e.run_id, e.data->>'room' as room, e.tx_id::text as tx, (extract(epoch from e.t) * 1000)::float8 as at
      from events e
     where e.tx_id < (select quorum_settle_horizon())
       and (e.tx_id, e.id) > (${cursor.tx}::xid8, ${cursor.id}::bigint)
     order by e.tx_id, e.id
     limit ${limit}`;
}

/**
 * Starts the loop. `announce` gets the events in commit-safe order, (tx_id, id), the order listJournal
 * pages in (so an event of an older transaction that committed late can follow one with a larger id);
 * each committed event exactly once. `gap` is told when the
 * announcer skipped events (it fell more than `maxPages` pages behind) or a read hung. A failed read
 * loses nothing: the cursor stays, and the next read starts from it.
 */
export function startAnnouncer(sql: postgres.Sql, announce: (notices: EventNotice[]) => void, gap: () => void, options: AnnouncerOptions = ANNOUNCER_DEFAULTS): Announcer {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wait = options.busyMs;
  let lastHeard = Date.now();
  let cursor: Cursor;
  const health: AnnouncerHealth = { lastReadAt: null, lastDelayMs: null, lastBatchAt: null };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void tick(), ms);
    timer.unref?.();
  };

  /** One read, abandoned (cancelled, and a gap told) when it hangs past `stuckMs`. */
  const read = async (): Promise<Row[] | "stuck"> => {
    const query = settledAfter(sql, cursor, options.pageSize);
    let guard: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<"stuck">((resolve) => {
      guard = setTimeout(() => resolve("stuck"), options.stuckMs);
    });
    try {
      const outcome = await Promise.race([query, stuck]);
      if (outcome === "stuck") void Promise.resolve(query.cancel()).catch(() => {});
      return outcome;
    } finally {
      clearTimeout(guard);
    }
  };

  const tick = async () => {
    if (stopped) return;
    let announced = 0;
    try {
      for (let page = 0; !stopped; page++) {
        if (page === options.maxPages) {
          // Fallen behind: subscribers re-read the journal themselves rather than wait for the backlog.
          cursor = await tail(sql);
          gap();
          break;
        }
        const rows = await read();
        if (rows === "stuck") {
          // Nothing is lost (the cursor stays), but the subscribers waited: they re-read for themselves.
          gap();
          break;
        }
        health.lastReadAt = Date.now();
        if (rows.length === 0) break;
        const last = rows[rows.length - 1];
        cursor = { tx: last.tx, id: Number(last.id) };
        // In the read's (tx_id, id) order, not sorted by id: a stream's Last-Event-ID then marks a place in
        // commit-safe order, before which its client has had every event (./stream.ts catches up from it).
        const notices = rows.map((r) => ({ id: Number(r.id), kind: r.kind, actor: r.actor, taskId: r.task_id, runId: r.run_id, room: r.room }));
        announced += notices.length;
        let newest = 0;
        for (const row of rows) newest = Math.max(newest, row.at);
        health.lastBatchAt = Date.now();
        health.lastDelayMs = Math.max(0, health.lastBatchAt - newest);
        if (!stopped) announce(notices);
        if (rows.length < options.pageSize) break;
      }
      if (announced > 0) lastHeard = Date.now();
      wait = Date.now() - lastHeard < options.hotMs ? options.busyMs : Math.min(options.idleMs, wait * options.backoff);
    } catch {
      // The database is away: the cursor stays, so nothing is lost; try again at the idle pace.
      wait = options.idleMs;
    }
    schedule(wait);
  };

  const ready = tail(sql).then((start) => {
    cursor = start;
    schedule(options.busyMs);
  });
  return {
    ready,
    health,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

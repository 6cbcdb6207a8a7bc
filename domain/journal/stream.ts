// The live journal as Server-Sent Events: a heartbeat, catch-up after a reconnect, and each notice
// only for a reader who may see its event (./visibility.ts). Streams are capped per principal.
import type { Executor } from "../../db/client";
import { QuorumError } from "../errors";
import type { Principal } from "../principal";
import { listJournal } from "./list";
import { type EventNotice, noticeOf, type Subscribe } from "./listen";
import { KINDS_THAT_MAY_CONCERN_DIRECT_MESSAGES, visibleEventIds } from "./visibility";

/**
 * A real event (`event: heartbeat`), not an SSE comment: comments never reach an EventSource's
 * listeners, so only an event lets the browser tell a quiet server from one that stopped answering.
 * The browser gives up on a stream after three missed beats (components/live-stall.ts).
 */
export const HEARTBEAT_MS = 5_000;

/**
 * At most this many open streams per principal. A browser tab holds one and an HTTP/1.1 browser
 * opens at most six connections per host, so 8 covers a human's tabs with room to spare; beyond
 * it a stream only holds a socket, a fan-out slot and its catch-up reads for nothing.
 */
export const MAX_STREAMS_PER_PRINCIPAL = 8;

/** What a refused stream is told to wait before trying again. */
const STREAM_RETRY_AFTER_MS = 10_000;
const CATCH_UP_LIMIT = 500;

/**
 * The open streams of this process, by principal. Counted in memory because what the cap guards is
 * this process's sockets and listeners: with several app instances each one caps on its own (so a
 * principal may hold up to 8 per instance), which bounds every instance's load all the same. Kept on
 * the process under a registered symbol, so that Next's bundled copy of this module counts in the same
 * map as the lean router's (a module-level map gave each copy a cap of its own: issue 34).
 */
const OPEN_STREAMS = Symbol.for("quorum.openStreams");
const processWide = globalThis as { [OPEN_STREAMS]?: Map<string, Set<() => void>> };
processWide[OPEN_STREAMS] ??= new Map();
const open = processWide[OPEN_STREAMS];

/** Events after which a stream's credential may no longer hold: a rotated or revoked key, an ended session. */
const CREDENTIAL_KINDS = new Set(["AgentKeyRotated", "AgentKeysRevoked", "SessionEnded"]);

/** How many streams `principalId` holds open in this process. */
export function openStreamCount(principalId: string): number {
  return open.get(principalId)?.size ?? 0;
}

/** How many streams this process holds open, all principals together (/metrics: SSE clients). */
export function openStreamTotal(): number {
  let total = 0;
  for (const streams of open.values()) total += streams.size;
  return total;
}

/** Takes one of `principalId`'s stream slots (this stream, or another surface's: A2A's task streams); returns its release. */
export function takeSlot(principalId: string, close: () => void): () => void {
  const mine = open.get(principalId) ?? new Set<() => void>();
  if (mine.size >= MAX_STREAMS_PER_PRINCIPAL) {
    throw new QuorumError("rate_limited", "stream", "too_many_streams", `you hold ${mine.size} open event streams, the most one principal may; close one (or wait) and try again`, {
      retryAfterMs: STREAM_RETRY_AFTER_MS,
      limit: MAX_STREAMS_PER_PRINCIPAL,
    });
  }
  mine.add(close);
  open.set(principalId, mine);
  return () => {
    mine.delete(close);
    if (mine.size === 0 && open.get(principalId) === mine) open.delete(principalId);
  };
}

function frame(notice: EventNotice): string {
  return `id: ${notice.id}\nevent: journal\ndata: ${JSON.stringify(notice)}\n\n`;
}

/**
 * Forwards notices in commit order, each only if `viewer` may see its event. Notices of kinds that can
 * never concern a direct message pass at once; the others are asked of the database in batches (all
 * that arrived while the previous question was out), so a burst costs one query, not one per event.
 */
function visibleInOrder(db: Executor, viewer: Principal, send: (notice: EventNotice) => void, lost: () => void): (notice: EventNotice) => void {
  if (viewer.kind === "human") return send;
  let pending: EventNotice[] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    try {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        const asked = batch.filter((n) => KINDS_THAT_MAY_CONCERN_DIRECT_MESSAGES.has(n.kind)).map((n) => n.id);
        const visible = asked.length ? await visibleEventIds(db, viewer, asked) : new Set<number>();
        for (const n of batch) if (!KINDS_THAT_MAY_CONCERN_DIRECT_MESSAGES.has(n.kind) || visible.has(n.id)) send(n);
      }
    } catch (error) {
      // A failed check (Postgres restarting) never forwards notices unchecked, and never drops them
      // either: the stream ends, and its client reconnects with Last-Event-ID and reads them back.
      console.warn(`[stream] visibility check failed for ${viewer.name}: ${(error as Error).message}`);
      pending = [];
      lost();
    } finally {
      draining = false;
    }
  };
  return (notice) => {
    pending.push(notice);
    if (!draining) void drain();
  };
}

export interface OpenStreamOptions {
  /** The last event id the client saw (Last-Event-ID, or `?after=`): what came later is replayed first. */
  after: number | null;
  /** Fires when the client goes away. */
  signal: AbortSignal;
  /** Called with each heartbeat: a principal with the stream open is present, reading or not. */
  stillHere?: () => Promise<void>;
  /**
   * Whether the credential that opened the stream still authenticates `viewer`. Asked after each key
   * rotation, revocation or sign-out, so an ended credential stops receiving at once, not at reconnect.
   */
  stillAuthenticated: () => Promise<boolean>;
}

/**
 * Opens `viewer`'s stream: `ready` once listening, then the catch-up, the live notices and a heartbeat.
 * Throws `too_many_streams` (429) when `viewer` already holds the most streams it may.
 */
export function openEventStream(ctx: { db: Executor; subscribe: Subscribe }, viewer: Principal, options: OpenStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finish = () => {};
  const release = takeSlot(viewer.id, () => finish());
  let ended = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let unsubscribe = () => {};
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      finish = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        release();
        try {
          controller.close();
        } catch {
          // already closed or cancelled
        }
      };
      const write = (text: string) => {
        if (ended) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          finish();
        }
      };
      options.signal.addEventListener("abort", finish);
      if (options.signal.aborted) return finish();
      try {
        const forward = visibleInOrder(
          ctx.db,
          viewer,
          (notice) => write(frame(notice)),
          () => finish(),
        );
        const recheck = () =>
          void options.stillAuthenticated().then(
            (ok) => ok || finish(),
            () => finish(),
          );
        // The stream is one sequence in commit-safe order, (tx_id, id), as the announcer reads the journal,
        // so the client's last id marks a place before which it has had everything, whichever instance it
        // reconnects to (their announcers stand at different places). Live notices that arrive during the
        // catch-up wait for it to end; those it already sent are not sent twice.
        let held: EventNotice[] | null = options.after === null ? null : [];
        // The catch-up reads the journal itself, so it may run ahead of this process's announcer: until the
        // announcer reaches the catch-up's last event, what it announces may have been sent already.
        let caughtUp: { sent: Set<number>; last: number } | null = null;
        const live = (notice: EventNotice) => {
          if (CREDENTIAL_KINDS.has(notice.kind)) recheck();
          if (held) return void held.push(notice);
          if (caughtUp?.sent.has(notice.id)) {
            if (notice.id === caughtUp.last) caughtUp = null;
            return;
          }
          forward(notice);
        };
        // Notices the announcer could not read in time are not sent late: the stream ends, and the client's
        // reconnect with Last-Event-ID reads them from the journal.
        unsubscribe = await ctx.subscribe(live, () => finish());
        if (ended) return unsubscribe();
        heartbeat = setInterval(() => {
          write(`event: heartbeat\ndata: {}\n\n`);
          // Presence is a courtesy: a failed write of it must not end the stream.
          options.stillHere?.().catch(() => {});
        }, HEARTBEAT_MS);
        // Subscribed from here on: tell the client (and how often to expect a beat), then replay what it missed.
        write(`event: ready\ndata: ${JSON.stringify({ heartbeatMs: HEARTBEAT_MS })}\n\n`);
        if (options.after !== null) {
          // Settled pages after the client's place, to the end: everything up to where the announcer stood
          // when this stream subscribed (and more); a client away for long misses more than a page.
          const sent = new Set<number>();
          let last: number | null = null;
          for (let after: number | null = options.after; after !== null && !ended; ) {
            const missed = await listJournal(ctx.db, { after, limit: CATCH_UP_LIMIT, viewer });
            for (const e of missed.items) {
              sent.add(e.id);
              last = e.id;
              write(frame(noticeOf(e)));
            }
            after = missed.next ?? null;
          }
          const waiting = held ?? [];
          held = null;
          if (last !== null && !waiting.some((notice) => notice.id === last)) caughtUp = { sent, last };
          for (const notice of waiting) if (!sent.has(notice.id)) forward(notice);
        }
      } catch (error) {
        finish();
        throw error;
      }
    },
    cancel() {
      finish();
    },
  });
}

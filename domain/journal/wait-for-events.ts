// A bounded long-poll over the journal: returns as soon as something new commits, or empty after at most 25 s.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { listJournal } from "./list";
import type { Subscribe } from "./listen";

/** Well under the 60-second timeouts of MCP clients and HTTP proxies. */
export const MAX_WAIT_SECONDS = 25;
const RECHECK_MS = 1_000;

export const waitForEventsQuery = z.strictObject({
  /** The journal id to wait past (the `next` of the previous answer); omitted: from now. */
  after: z.coerce.number().int().min(0).optional(),
  /** How long to wait for news, at most 25 (default 25); 0 answers at once. */
  timeoutSeconds: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).optional(),
  /** Only these kinds, comma-separated: `MessageSent,TaskOffered`. */
  kinds: z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(64)).max(50))
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type WaitForEventsQuery = z.infer<typeof waitForEventsQuery>;

/** What happened, in a line: fetch the details (inbox, task, decision) with the matching read. */
export interface EventNews {
  id: number;
  t: string;
  kind: string;
  actor: string | null;
  actorName: string | null;
  taskId: string | null;
  room: string | null;
  /** The caller is its recipient, is @mentioned, or is offered, owns or holds what it is about. */
  forMe: boolean;
}

export interface EventsPage {
  items: EventNews[];
  /** Pass as `after` next time; reading never moves a seen-cursor (ack with the cursor call). */
  next: number;
  timedOut: boolean;
}

function isForMe(data: unknown, callerId: string): boolean {
  const d = (data ?? {}) as Record<string, unknown>;
  if (["to", "ownerId", "holderId", "offeredTo"].some((key) => d[key] === callerId)) return true;
  return Array.isArray(d.mentions) && d.mentions.includes(callerId);
}

/** The newest id every reader can see: below the oldest transaction still in flight (see listJournal). */
async function settledHead(db: Executor): Promise<number> {
  const [row] = await db
    .select({ id: sql<number>`coalesce(max(${events.id}), 0)` })
    .from(events)
    .where(sql`${events}.tx_id < quorum_settle_horizon()`);
  return Number(row?.id ?? 0);
}

export async function waitForEvents(db: Executor, caller: Principal, query: WaitForEventsQuery, subscribe: Subscribe, signal?: AbortSignal): Promise<EventsPage> {
  const deadline = Date.now() + (query.timeoutSeconds ?? MAX_WAIT_SECONDS) * 1000;
  const kinds = query.kinds && query.kinds.length > 0 ? new Set(query.kinds) : null;
  let after = query.after ?? (await settledHead(db));
  let wake = () => {};
  // Listen before the first read, so a commit between the read and the wait still wakes us.
  const unsubscribe = await subscribe(() => wake());
  try {
    for (;;) {
      const page = await listJournal(db, { after, limit: query.limit ?? 100, viewer: caller });
      if (page.items.length > 0) after = page.items[page.items.length - 1].id;
      const items = page.items
        .filter((e) => (kinds ? kinds.has(e.kind) : true))
        .map((e) => ({
          id: e.id,
          t: e.t,
          kind: e.kind,
          actor: e.actor,
          actorName: e.actorName,
          taskId: e.taskId,
          room: ((e.data ?? {}) as { room?: string }).room ?? null,
          forMe: e.actor !== caller.id && isForMe(e.data, caller.id),
        }));
      if (items.length > 0) return { items, next: after, timedOut: false };
      if (page.next !== undefined) continue; // a full page of other kinds: read on without waiting
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal?.aborted) return { items: [], next: after, timedOut: true };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, RECHECK_MS));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
  } finally {
    unsubscribe();
  }
}

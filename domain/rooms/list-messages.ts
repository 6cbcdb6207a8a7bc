// Reads a room: ascending after a seq, or the latest tail; reading never moves a seen-cursor. A reader may
// ask for one flight's thread, or for the room's stream with each flight's thread folded (./flight-threads.ts).
import { and, asc, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { messages, principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Page } from "../page";
import type { Principal } from "../principal";
import { messagesVisibleTo } from "../journal/visibility";
import { aboutNoFlight, assertFlightExists, inFlightThread, opensItsThread, threadSummaries, type ThreadSummary } from "./flight-threads";
import { recipient, selectMessageViews, toMessageView, type MessageView } from "./message-view";
import { getRoom } from "./rooms";

export const listMessagesQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  // Terse: each description is also in every MCP tools/list an agent reads (docs/API.md says the rest).
  flight: z.coerce.number().int().min(1).optional().describe("one flight's thread"),
  threads: z.literal("folded").optional().describe("each flight's thread folded into its first message"),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;

/** A message as a room's page lists it: the first message of a folded thread says what it folds. */
export interface RoomMessage extends MessageView {
  thread?: ThreadSummary;
}

/** A message sent to a human or naming one with an @mention: what a flight says to a person stays in the stream too. */
const toAHuman = or(eq(recipient.kind, "human"), sql`exists (select 1 from ${principals} where ${principals.kind} = 'human' and ${principals.id} = any(${messages.mentions}))`);

/** The room's stream, folded: messages of no flight, each thread's opening message, and what a flight says to a human. */
function inFoldedStream(viewer: Principal, room: string) {
  return or(aboutNoFlight(), toAHuman, opensItsThread(viewer, room));
}

export async function listMessages(db: Executor, caller: Principal, room: string, query: ListMessagesQuery): Promise<Page<RoomMessage>> {
  const folded = query.threads === "folded";
  if (query.flight !== undefined && folded) {
    throw fail.invalid("message", "a flight's thread is read whole: give `flight` or `threads=folded`, not both", { issues: [{ path: ["threads"], message: "not with flight" }] });
  }
  const limit = query.limit ?? 100;
  const ascending = query.after !== undefined;
  const where = and(
    eq(messages.room, room),
    messagesVisibleTo(caller),
    query.flight !== undefined ? inFlightThread(query.flight) : undefined,
    folded ? inFoldedStream(caller, room) : undefined,
    query.after !== undefined ? gt(messages.seq, query.after) : undefined,
    query.before !== undefined ? lt(messages.seq, query.before) : undefined,
  );
  // The room's existence (404), the flight's, and the page are read together: one round trip's wait, not three.
  const [, , rows] = await Promise.all([
    getRoom(db, room),
    query.flight !== undefined ? assertFlightExists(db, query.flight) : undefined,
    selectMessageViews(db)
      .where(where)
      .orderBy(ascending ? asc(messages.seq) : desc(messages.seq))
      .limit(limit + 1),
  ]);
  const page: RoomMessage[] = rows.slice(0, limit).map(toMessageView);
  if (folded) await summariseThreads(db, caller, room, page);
  const more = rows.length > limit;
  if (ascending) return more ? { items: page, next: page[page.length - 1].seq } : { items: page };
  // The tail is read newest first and shown oldest first; `next` pages further back (before=).
  page.reverse();
  return more ? { items: page, next: page[0].seq } : { items: page };
}

/** Puts each thread's summary on its opening message, where the page holds it. */
async function summariseThreads(db: Executor, caller: Principal, room: string, page: RoomMessage[]): Promise<void> {
  const numbers = [...new Set(page.flatMap((m) => (m.flight === null ? [] : [m.flight])))];
  const summaries = await threadSummaries(db, caller, room, numbers);
  for (const message of page) {
    const summary = message.flight === null ? undefined : summaries.get(message.flight);
    if (summary && summary.firstSeq === message.seq) message.thread = { replies: summary.replies, lastActivityAt: summary.lastActivityAt };
  }
}

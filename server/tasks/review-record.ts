// An agent's review record, read from the journal: of the tasks it owned, how many were reviewed and how
// many of those reviews accepted. The roster shows it as a success rate; reassignment scores by it.
import { and, eq, inArray, sql } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";

export interface ReviewRecord {
  accepted: number;
  reviewed: number;
}

/** The record of each owner that has been reviewed at least once (an owner never reviewed has no entry). */
export async function reviewRecords(db: Executor, ownerIds: string[]): Promise<Map<string, ReviewRecord>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await db
    .select({
      ownerId: sql<string>`${events.data}->>'ownerId'`,
      accepted: sql<number>`count(*) filter (where ${events.data}->>'verdict' = 'accept')::int`,
      reviewed: sql<number>`count(*)::int`,
    })
    .from(events)
    .where(and(eq(events.kind, "TaskReviewed"), inArray(sql`${events.data}->>'ownerId'`, ownerIds)))
    .groupBy(sql`${events.data}->>'ownerId'`);
  return new Map(rows.map(({ ownerId, accepted, reviewed }) => [ownerId, { accepted, reviewed }]));
}

// An agent's review record, read from the journal: of the tasks it owned, how many were reviewed and how
// many of those reviews accepted. The roster shows it as a success rate; reassignment scores by it.
import { and, eq, inArray, sql } from "drizzle-orm";
import { events, journalArchivedReviews } from "../../db/schema";
import type { Executor } from "../../db/client";

export interface ReviewRecord {
  accepted: number;
  reviewed: number;
}

/**
 * The record of each owner that has been reviewed at least once (an owner never reviewed has no entry), the
 * verdicts of archived months included (journal_archived_reviews, written when they left the journal: DESIGN §4).
 */
export async function reviewRecords(db: Executor, ownerIds: string[]): Promise<Map<string, ReviewRecord>> {
  if (ownerIds.length === 0) return new Map();
  const live = db
    .select({
      ownerId: sql<string>`${events.data}->>'ownerId'`.as("owner_id"),
      accepted: sql<number>`count(*) filter (where ${events.data}->>'verdict' = 'accept')::int`.as("accepted"),
      reviewed: sql<number>`count(*)::int`.as("reviewed"),
    })
    .from(events)
    .where(and(eq(events.kind, "TaskReviewed"), inArray(sql`${events.data}->>'ownerId'`, ownerIds)))
    .groupBy(sql`${events.data}->>'ownerId'`);
  const archived = db
    .select({ ownerId: journalArchivedReviews.ownerId, accepted: journalArchivedReviews.accepted, reviewed: journalArchivedReviews.reviewed })
    .from(journalArchivedReviews)
    .where(inArray(journalArchivedReviews.ownerId, ownerIds));
  const records = new Map<string, ReviewRecord>();
  for (const { ownerId, accepted, reviewed } of [...(await live), ...(await archived)]) {
    const held = records.get(ownerId) ?? { accepted: 0, reviewed: 0 };
    records.set(ownerId, { accepted: held.accepted + accepted, reviewed: held.reviewed + reviewed });
  }
  return records;
}

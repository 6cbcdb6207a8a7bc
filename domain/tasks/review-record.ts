// An agent's review record: of the tasks it owned, how many were reviewed and how many of those reviews
// accepted. The roster shows it as a success rate; reassignment scores by it.
import { inArray } from "drizzle-orm";
import { reviewTallies } from "../../db/schema";
import type { Executor } from "../../db/client";

export interface ReviewRecord {
  accepted: number;
  reviewed: number;
}

/**
 * The record of each owner that has been reviewed at least once (an owner never reviewed has no entry): the
 * tallies the journal keeps as each TaskReviewed is appended (db/functions/quorum_tally_review.sql), archived
 * months included (DESIGN §4).
 */
export async function reviewRecords(db: Executor, ownerIds: string[]): Promise<Map<string, ReviewRecord>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await db
    .select({ ownerId: reviewTallies.ownerId, accepted: reviewTallies.accepted, reviewed: reviewTallies.reviewed })
    .from(reviewTallies)
    .where(inArray(reviewTallies.ownerId, ownerIds));
  return new Map(rows.filter((r) => r.reviewed > 0).map((r) => [r.ownerId, { accepted: r.accepted, reviewed: r.reviewed }]));
}

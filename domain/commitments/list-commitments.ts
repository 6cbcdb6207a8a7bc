// The ledger: commitments newest first, filtered by owner and status, paginated by number.
import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { COMMITMENT_STATUSES, commitments } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import { toCommitmentViews, type CommitmentView } from "./commitment-view";

export const listCommitmentsQuery = z.strictObject({
  owner: z.uuid().optional(),
  status: z.enum(COMMITMENT_STATUSES).optional(),
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type ListCommitmentsQuery = z.infer<typeof listCommitmentsQuery>;

export async function listCommitments(db: Executor, query: ListCommitmentsQuery, now: Date): Promise<Page<CommitmentView>> {
  const limit = query.limit ?? 100;
  const rows = await db
    .select()
    .from(commitments)
    .where(
      and(
        query.owner ? eq(commitments.ownerId, query.owner) : undefined,
        query.status ? eq(commitments.status, query.status) : undefined,
        query.before ? lt(commitments.number, query.before) : undefined,
      ),
    )
    .orderBy(desc(commitments.number))
    .limit(limit + 1);
  const items = await toCommitmentViews(db, rows.slice(0, limit), now);
  return rows.length > limit ? { items, next: items[items.length - 1].number } : { items };
}

// The decision board as a list: newest first, by status, paginated by number; `total` feeds the badges.
import { and, count, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { DECISION_STATUSES, decisions } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import { toDecisionViews, type DecisionView } from "./decision-view";

export const listDecisionsQuery = z.strictObject({
  status: z.enum(DECISION_STATUSES).optional(),
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type ListDecisionsQuery = z.infer<typeof listDecisionsQuery>;

/** A page of decisions, with how many match the filter in all. */
export type DecisionPage = Page<DecisionView> & { total: number };

export async function listDecisions(db: Executor, query: ListDecisionsQuery): Promise<DecisionPage> {
  const limit = query.limit ?? 50;
  const byStatus = query.status ? eq(decisions.status, query.status) : undefined;
  const rows = await db
    .select()
    .from(decisions)
    .where(and(byStatus, query.before ? lt(decisions.number, query.before) : undefined))
    .orderBy(desc(decisions.number))
    .limit(limit + 1);
  const [{ total }] = await db.select({ total: count() }).from(decisions).where(byStatus);
  const items = await toDecisionViews(db, rows.slice(0, limit));
  return rows.length > limit ? { items, next: items[items.length - 1].number, total } : { items, total };
}

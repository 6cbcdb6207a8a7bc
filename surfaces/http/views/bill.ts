// What the Bill counts: budget lines (also shown beside a flight's plan) and the model calls outside
// agents report.
import { z } from "zod";
import type { BudgetLine } from "@/domain/budgets/lines";
import type { ReportedUsage } from "@/domain/bill/report-usage";
import { open, uuid, when, int } from "./base";

/** A budget beside a plan or on the Bill (domain/budgets/lines.ts). */
export const budgetLine = open({
  id: uuid,
  allowance: int,
  spent: int,
  remaining: int,
  exhausted: z.boolean(),
  promised: int,
  byModel: z.array(open({ model: z.string(), tokens: int })),
}) satisfies z.ZodType<BudgetLine>;
/** An outside agent's reported model call, as the Bill folds it (POST /api/usage). */
export const reportedUsage = open({
  eventId: int,
  model: z.string(),
  inputTokens: int,
  outputTokens: int,
  cachedTokens: int,
  tokens: int,
  taskId: uuid.nullable(),
  selfReported: z.literal(true),
  reportedAt: when,
}) satisfies z.ZodType<ReportedUsage>;

// What the Bill counts: budget lines (also shown beside a flight's plan) and the model calls outside
// agents report.
import { z } from "zod";
import type { BudgetLine } from "@/domain/budgets/lines";
import type { ReportedUsage } from "@/domain/bill/report-usage";
import type { RunBill } from "@/domain/bill/recent";
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
/** A run on the Bill (GET /api/bill/runs, an agent's runs): who ran it, on which task, when it started, how it ended, what it spent. */
export const runBill = open({
  runId: z.string(),
  agentId: uuid.nullable(),
  agentName: z.string().nullable(),
  taskId: uuid.nullable(),
  taskNumber: int.nullable(),
  taskTitle: z.string().nullable(),
  startedAt: when.nullable(),
  status: z.enum(["running", "done", "halted", "inconclusive", "out_of_turns", "stopped"]),
  firstEventId: int,
  lastEventId: int,
  tokens: int,
  inputTokens: int,
  outputTokens: int,
  cachedTokens: int,
  calls: int,
  estimatedCalls: int,
  selfReportedTokens: int,
  selfReportedCalls: int,
  cost: z.number(),
  cachedCost: z.number(),
  unpricedTokens: int,
  simulatedTokens: int,
}) satisfies z.ZodType<RunBill>;

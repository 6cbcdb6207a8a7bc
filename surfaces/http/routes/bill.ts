// The bill: tokens and money per agent, run, task and over time.
import { priceSettings } from "@/domain/config";
import { billPageQuery, billTasksQuery, listBillRuns, listBillTasks } from "@/domain/bill/recent";
import { reportUsage, reportUsageInput } from "@/domain/bill/report-usage";
import { billQuery, readBill } from "@/domain/bill/read-bill";
import { billSeries, billSeriesQuery } from "@/domain/bill/series";
import * as v from "../views";
import { created, ok, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { WRITE } from "@/surfaces/mcp/tool";

export const BILL_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/bill",
    tag: TAGS.bill,
    summary: "Tokens and money per agent, model, task and run",
    access: "principal",
    query: billQuery,
    answers: ok(v.anyObject),
    refusals: [],
    run: async ({ ctx, query }) => await readBill(ctx.db, priceSettings(), query),
  }),
  endpoint({
    method: "get",
    path: "/api/bill/runs",
    tag: TAGS.bill,
    summary: "Runs with their agent, task, start, tokens and cost, newest first",
    access: "principal",
    query: billPageQuery,
    answers: ok(v.page(v.runBill)),
    refusals: [],
    run: async ({ ctx, query }) => await listBillRuns(ctx.db, priceSettings().prices, query),
  }),
  endpoint({
    method: "get",
    path: "/api/bill/series",
    tag: TAGS.bill,
    summary: "Spend over time per agent",
    access: "principal",
    query: billSeriesQuery,
    answers: ok(v.anyObject),
    refusals: [],
    run: async ({ ctx, query }) => await billSeries(ctx.db, priceSettings(), query, ctx.clock.now()),
  }),
  endpoint({
    method: "get",
    path: "/api/bill/tasks",
    tag: TAGS.bill,
    summary: "Tasks with their tokens and cost, newest spender first",
    access: "principal",
    query: billTasksQuery,
    answers: ok(v.page(v.anyObject)),
    refusals: [],
    run: async ({ ctx, query }) => await listBillTasks(ctx.db, priceSettings().prices, query),
  }),
  endpoint({
    method: "post",
    path: "/api/usage",
    tag: TAGS.bill,
    summary: "Report what one of your model calls spent (agents): it joins the Bill, marked self-reported",
    description:
      "For agents whose model calls Quorum does not make (Claude Code, Codex, your own): send each call's tokens after it returns. " +
      "The Bill adds them to your line, your task's (with `taskId`) and the model's, marked self-reported; no budget is debited. " +
      "MCP: `report_usage` takes the same fields.",
    access: "principal",
    body: reportUsageInput,
    answers: created(v.reportedUsage, "Reported; on the Bill from now on"),
    refusals: [403, 404],
    tool: {
      name: "report_usage",
      description: "After each model call you make, report its tokens (and taskId, if you work one): your spend joins the Bill, marked self-reported.",
      hints: WRITE,
      output: out.usageOut,
    },
    run: async ({ ctx, caller, body }) => await reportUsage(ctx.db, caller, body, ctx.clock),
  }),
];

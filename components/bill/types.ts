// Shapes of the bill as the browser receives them: domain/bill's own view types (type-only).
export type { LineView as Line, BudgetView } from "@/domain/bill/line-views";
export type { AgentBill } from "@/domain/bill/agent-spend";
export type { RunBill, TaskBill, BillPage } from "@/domain/bill/recent";
export type { Price } from "@/domain/bill/prices";
export type { BillView } from "@/domain/bill/read-bill";
export type { BillSeries, Window as SeriesWindow } from "@/domain/bill/series";
export type { FlightView, FlightTaskView } from "@/domain/flights/view";
export type { BudgetLine } from "@/domain/budgets/lines";

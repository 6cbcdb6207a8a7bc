// Shapes of the bill as the browser receives them: server/bill's own view types (type-only).
export type { LineView as Line, BudgetView } from "@/server/bill/line-views";
export type { AgentBill } from "@/server/bill/agent-spend";
export type { RunBill, TaskBill, BillPage } from "@/server/bill/recent";
export type { Price } from "@/server/bill/prices";
export type { BillView } from "@/server/bill/read-bill";
export type { BillSeries, Window as SeriesWindow } from "@/server/bill/series";
export type { FlightView, FlightTaskView } from "@/server/flights/view";
export type { BudgetLine } from "@/server/budgets/lines";

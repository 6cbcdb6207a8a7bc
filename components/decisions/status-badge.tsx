// A decision's status as a word and a colour (escalated is red everywhere).
import type { DecisionStatus } from "./types";

const STYLE: Record<DecisionStatus, string> = {
  open: "bg-blue-100 text-blue-900 dark:bg-blue-900/50 dark:text-blue-100",
  escalated: "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
  closed: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
  resolved: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
  defaulted: "bg-neutral-200 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200",
};

const LABEL: Record<DecisionStatus, string> = {
  open: "open",
  escalated: "escalated",
  closed: "decided by ballot",
  resolved: "decided by a human",
  defaulted: "default adopted",
};

export function DecisionStatusBadge({ status }: { status: DecisionStatus }) {
  return <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${STYLE[status]}`}>{LABEL[status]}</span>;
}

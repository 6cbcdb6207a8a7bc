"use client";
// The tabs of the Decisions page: open votes, the Escalations inbox (with its count), everything.
import Link from "next/link";
import { useEscalations } from "./use-decisions";

export function DecisionTabs({ current }: { current: "open" | "escalations" | "all" }) {
  const waiting = useEscalations().data?.total ?? 0;
  const tab = (key: typeof current, href: string, label: string, badge?: number) => (
    <Link
      href={href}
      aria-current={current === key ? "page" : undefined}
      className={`flex items-center gap-1.5 border-b-2 px-1 py-2 text-sm ${current === key ? "border-accent-600 font-medium" : "border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-300"}`}
    >
      {label}
      {badge !== undefined && badge > 0 && <span className="rounded-full bg-red-600 px-1.5 text-[11px] font-semibold text-white tabular-nums">{badge}</span>}
    </Link>
  );
  return (
    <nav aria-label="Decision views" className="flex gap-5 border-b border-neutral-200 px-6 dark:border-neutral-800">
      {tab("open", "/decisions", "Open")}
      {tab("escalations", "/decisions/escalations", "Escalations", waiting)}
      {tab("all", "/decisions?view=all", "All")}
    </nav>
  );
}

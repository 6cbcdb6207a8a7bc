"use client";
// The top strip's answer to "is anything burning money?": the team's spend today against its budget.
import Link from "next/link";
import { budgetLevel, formatMoney, formatTokens } from "./format";
import { useBill, useSpendToday } from "./use-bill";

const LEVEL = { ok: "text-neutral-500 dark:text-neutral-400", warn: "text-amber-700 dark:text-amber-400", danger: "text-red-700 dark:text-red-400" } as const;

export function TeamSpend() {
  const bill = useBill();
  const today = useSpendToday();
  if (!bill.data || !today.data?.since) return <span className="h-4 w-40 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-hidden />;
  const { team, currency, prices } = bill.data;
  const spent = today.data.since;
  const used = team.allowance ? team.spent / team.allowance : null;
  const level = budgetLevel(used, team.left !== null && team.left <= 0);
  return (
    <Link href="/bill" className="hover:underline" data-testid="team-spend" data-tokens={spent.tokens}>
      {/* On a phone the words shorten ("2.3k today · 2.3k / 980k") so the strip fits 390 px whole. */}
      <strong className="tabular-nums">{formatTokens(spent.tokens)}</strong>
      <span className="text-neutral-500 dark:text-neutral-400">
        <span className="max-md:hidden"> tokens</span> today
      </span>
      {Object.keys(prices).length > 0 && <span className="tabular-nums text-neutral-500 max-md:hidden dark:text-neutral-400"> ({formatMoney(spent.cost, currency)})</span>}
      {team.allowance !== null && (
        <span className={`tabular-nums ${LEVEL[level]}`} title={`budget: ${formatTokens(team.spent)} of ${formatTokens(team.allowance)} tokens used`}>
          {" "}
          · <span className="max-md:hidden">budget </span>
          {formatTokens(team.spent)}
          <span className="max-md:hidden"> of </span>
          <span className="md:hidden"> / </span>
          {formatTokens(team.allowance)}
          <span className="max-md:hidden"> used</span>
          {level !== "ok" ? " ⚠" : ""}
        </span>
      )}
    </Link>
  );
}

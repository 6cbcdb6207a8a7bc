"use client";
// The top strip's answer to "is anything burning money?": model tokens spent today (simulated ones apart)
// and, while flights are open, what they have used of their allowance — the hub's allowance, as the Bill says.
import Link from "next/link";
import { budgetLevel, formatMoney, formatTokens } from "./format";
import { useBill, useSpendToday } from "./use-bill";

const LEVEL = { ok: "text-neutral-500 dark:text-neutral-400", warn: "text-amber-700 dark:text-amber-400", danger: "text-red-700 dark:text-red-400" } as const;

export function TeamSpend() {
  const bill = useBill();
  const today = useSpendToday();
  if (!bill.data || !today.data?.since) return <span className="h-4 w-40 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-hidden />;
  const { hub, currency, prices } = bill.data;
  const spent = today.data.since;
  const modelTokens = spent.tokens - spent.simulatedTokens;
  const used = hub.allowance ? hub.spent / hub.allowance : null;
  const level = budgetLevel(used, hub.openFlights > 0 && hub.left <= 0);
  const flights = `${hub.openFlights} open flight${hub.openFlights === 1 ? "" : "s"}`;
  return (
    <Link href="/bill" className="hover:underline" data-testid="team-spend" data-tokens={modelTokens} data-simulated={spent.simulatedTokens}>
      {/* On a phone the words shorten ("2.3k today · 2.3k / 400k") so the strip fits 390 px whole. */}
      <strong className="tabular-nums">{formatTokens(modelTokens)}</strong>
      <span className="text-neutral-500 dark:text-neutral-400">
        <span className="max-md:hidden"> tokens</span> today
      </span>
      {spent.simulatedTokens > 0 && (
        <span className="text-neutral-500 max-md:hidden dark:text-neutral-400" title="scripted runs: no model was called, their tokens are estimates">
          {" "}
          (+{formatTokens(spent.simulatedTokens)} simulated)
        </span>
      )}
      {Object.keys(prices).length > 0 && <span className="tabular-nums text-neutral-500 max-md:hidden dark:text-neutral-400"> ({formatMoney(spent.cost, currency)})</span>}
      {hub.openFlights > 0 && (
        <span
          className={`tabular-nums ${LEVEL[level]}`}
          data-testid="hub-allowance"
          title={`${flights}: ${formatTokens(hub.spent)} of their ${formatTokens(hub.allowance)} tokens used`}
        >
          {" "}
          · <span className="max-md:hidden">{flights}: </span>
          {formatTokens(hub.spent)}
          <span className="max-md:hidden"> of </span>
          <span className="md:hidden"> / </span>
          {formatTokens(hub.allowance)}
          <span className="max-md:hidden"> used</span>
          {level !== "ok" ? " ⚠" : ""}
        </span>
      )}
    </Link>
  );
}

"use client";
// The Agents page: every agent with its model (the built-in team's), presence, role, current lease, load, success rate, spend and budget
// left (live), each opening to its runs and principles; the principles in force below.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { LeaseCountdown } from "../lease-countdown";
import { StallBadge } from "../stall-badge";
import { BudgetBar } from "../bill/budget-bar";
import { formatMoney, formatPercent, formatTokens } from "../bill/format";
import { useBill } from "../bill/use-bill";
import { PrinciplesPanel } from "../memory/principles-panel";
import type { Page } from "../types";
import { PresencePill } from "./presence-pill";
import { usePresence } from "../use-presence";
import type { AgentRow, RosterRow } from "./types";
import { MemberModel, ModelState } from "./model-state";
import { ReservationsPanel } from "../reservations/reservations-panel";

const th = "px-3 py-2 text-left text-xs font-medium text-neutral-500 dark:text-neutral-400";

export function useRoster() {
  return useQuery({ queryKey: queryKeys.roster(), queryFn: () => apiGet<Page<RosterRow>>("/api/agents") });
}

export function SuccessRate({ agent }: { agent: Pick<AgentRow, "successRate" | "accepted" | "reviewed"> }) {
  if (agent.successRate === null)
    return (
      <span className="text-neutral-600 dark:text-neutral-300" title="no review yet">
        —
      </span>
    );
  return <span title={`${agent.accepted} accepted of ${agent.reviewed} reviewed`}>{formatPercent(agent.successRate)}</span>;
}

export function RosterView() {
  const roster = useRoster();
  const currency = useBill().data?.currency ?? "USD";
  const agents = (roster.data?.items ?? []).filter((p): p is AgentRow => p.kind === "agent");
  const isPresent = usePresence(agents, roster.dataUpdatedAt, roster.refetch);
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-6xl space-y-8 px-6 py-4">
        <section aria-labelledby="roster-title" className="space-y-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h1 id="roster-title" className="text-lg font-semibold">
              Agents
            </h1>
            <span className="text-sm">
              <ModelState always />
            </span>
          </div>
          {roster.isPending && <div className="h-40 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />}
          {roster.isError && <p className="text-sm text-red-600">Could not load the roster: {roster.error.message}</p>}
          {roster.isSuccess && agents.length === 0 && (
            <p className="rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
              No agents yet. `npm start` brings the built-in team; register your own with `quorum agent add NAME --role ROLE`.
            </p>
          )}
          {agents.length > 0 && (
            <div className="overflow-x-auto rounded-lg border border-neutral-200 dark:border-neutral-800">
              <table className="stack-table w-full text-sm" data-testid="roster">
                <thead className="bg-neutral-50 dark:bg-neutral-900">
                  <tr>
                    <th className={th}>Agent</th>
                    <th className={th}>Model</th>
                    <th className={th}>Presence</th>
                    <th className={th}>Current lease</th>
                    <th className={`${th} text-right`}>Load</th>
                    <th className={`${th} text-right`}>Success</th>
                    <th className={`${th} text-right`}>Spend</th>
                    <th className={th} title="Its own allowance, for work outside flights: a run in a flight draws on the flight's">
                      Own allowance left
                    </th>
                  </tr>
                </thead>
                <tbody aria-live="polite">
                  {agents.map((a) => (
                    <tr key={a.id} className="border-t border-neutral-100 dark:border-neutral-900" data-testid="roster-row" data-agent={a.name}>
                      <td data-label="Agent" className="px-3 py-2">
                        {/* A role is free text: a long unbroken one wraps inside the cell rather than widening the table. */}
                        <Link href={`/agents/${a.id}`} className="flex min-w-0 items-center gap-2 hover:underline">
                          <Avatar id={a.id} name={a.name} kind="agent" size="sm" />
                          <span className="font-medium wrap-anywhere">{a.name}</span>
                          <span className="min-w-0 text-xs text-neutral-500 wrap-anywhere">{a.role}</span>
                        </Link>
                      </td>
                      <td data-label="Model" className="px-3 py-2">
                        <MemberModel name={a.name} />
                      </td>
                      <td data-label="Presence" className="px-3 py-2">
                        <PresencePill present={isPresent(a)} lastSeenAt={a.lastSeenAt} />
                      </td>
                      <td data-label="Current lease" className="px-3 py-2">
                        {a.lease ? (
                          // A long title is cut to the cell's width (the whole title on hover) rather than widening the table.
                          <span className="flex max-w-72 min-w-0 items-center gap-2">
                            <Link href={`/journal?task=${a.lease.taskId}&view=thread`} className="min-w-0 truncate hover:underline" title={a.lease.title}>
                              #{a.lease.number} {a.lease.title}
                            </Link>
                            {a.lease.leaseExpiresAt && <LeaseCountdown expiresAt={a.lease.leaseExpiresAt} />}
                            <StallBadge at={a.stalledSince} />
                          </span>
                        ) : (
                          <span className="text-xs text-neutral-600 dark:text-neutral-300">none</span>
                        )}
                      </td>
                      <td data-label="Load" className="px-3 py-2 text-right tabular-nums">
                        {a.load}
                      </td>
                      <td data-label="Success" className="px-3 py-2 text-right tabular-nums">
                        <SuccessRate agent={a} />
                      </td>
                      <td data-label="Spend" className="px-3 py-2 text-right tabular-nums" data-testid="roster-spend" data-tokens={a.tokens}>
                        {formatTokens(a.tokens)}
                        {a.tokens > a.unpricedTokens && <span className="block text-xs text-neutral-500">{formatMoney(a.cost, currency)}</span>}
                        {a.simulatedTokens > 0 && (
                          <span className="block text-xs text-neutral-500">
                            {a.simulatedTokens === a.tokens ? "all simulated" : `${formatTokens(a.simulatedTokens)} simulated`}
                          </span>
                        )}
                      </td>
                      <td data-label="Own allowance left" className="px-3 py-2">
                        <BudgetBar
                          allowance={a.allowance}
                          spent={a.allowance === null || a.budgetLeft === null ? 0 : a.allowance - a.budgetLeft}
                          exhausted={a.exhausted}
                          label={`${a.name}'s own allowance`}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <PrinciplesPanel />
        <ReservationsPanel />
      </div>
    </div>
  );
}

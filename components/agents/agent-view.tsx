"use client";
// One agent: its numbers, budgets, keys (a human rotates or revokes them), runs (each opening as a timeline),
// the principles in its context (those its own lessons taught marked), and its recent gate rejections.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { LeaseCountdown } from "../lease-countdown";
import { BudgetBar } from "../bill/budget-bar";
import { Money } from "../bill/agent-table";
import { formatTokens } from "../bill/format";
import { RunsTable } from "../bill/runs-table";
import { useBill } from "../bill/use-bill";
import type { Page } from "../types";
import { useMe } from "../session";
import { AllowanceEditor } from "./allowance-editor";
import { FlightStarts } from "./flight-starts";
import { KeyActions } from "./key-actions";
import { PresencePill } from "./presence-pill";
import { usePresence } from "../use-presence";
import { SuccessRate } from "./roster-view";
import type { Principle } from "../memory/types";
import type { AgentDetail } from "./types";
import { RelativeTime } from "../time";

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-neutral-500 dark:text-neutral-400">{label}</dt>
      <dd className="text-base font-semibold tabular-nums">{children}</dd>
    </div>
  );
}

/** Where the spend went, so the figure adds up with the allowance below: in flights, of its own, simulated. */
function SpentWhere({ agent }: { agent: AgentDetail["agent"] }) {
  const own = agent.allowance === null || agent.budgetLeft === null ? 0 : agent.allowance - agent.budgetLeft;
  const parts = [
    agent.tokens - own > 0 && `${formatTokens(agent.tokens - own)} in flights`,
    own > 0 && `${formatTokens(own)} of its own allowance`,
    agent.simulatedTokens > 0 && `${formatTokens(agent.simulatedTokens)} simulated`,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return <span className="block text-xs font-normal text-neutral-500 dark:text-neutral-400">{parts.join(" · ")}</span>;
}

export function AgentView({ agentId }: { agentId: string }) {
  const detail = useQuery({ queryKey: queryKeys.agent(agentId), queryFn: () => apiGet<AgentDetail>(`/api/agents/${agentId}`) });
  const principles = useQuery({ queryKey: queryKeys.principles(), queryFn: () => apiGet<Page<Principle>>("/api/principles") });
  const currency = useBill().data?.currency ?? "USD";
  const me = useMe();
  const isPresent = usePresence(detail.data ? [detail.data.agent] : undefined, detail.dataUpdatedAt, detail.refetch);
  if (detail.isPending) return <div className="m-6 h-48 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (detail.isError) {
    return (
      <p className="p-6 text-sm text-red-600">
        {detail.error.message}.{" "}
        <Link href="/agents" className="underline">
          Back to the agents
        </Link>
      </p>
    );
  }
  const { agent, budgets, gateRejections, flightAllowance } = detail.data;
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-5xl space-y-6 px-6 py-4">
        <header className="flex flex-wrap items-center gap-3">
          <Avatar id={agent.id} name={agent.name} kind="agent" />
          <div>
            <h1 className="text-lg font-semibold">{agent.name}</h1>
            <p className="text-xs text-neutral-500">{agent.role}</p>
          </div>
          <PresencePill present={isPresent(agent)} lastSeenAt={agent.lastSeenAt} />
          <Link href={`/journal?actor=${agent.id}`} className="ml-auto text-sm text-accent-600 hover:underline dark:text-accent-500">
            Its journal
          </Link>
        </header>
        <dl className="grid grid-cols-2 gap-4 rounded-lg border border-neutral-200 p-4 sm:grid-cols-5 dark:border-neutral-800">
          <Stat label="Load">{agent.load}</Stat>
          <Stat label="Success rate">
            <SuccessRate agent={agent} />
          </Stat>
          <Stat label="Spent, all its runs">
            <span data-testid="agent-spent" data-tokens={agent.tokens}>
              {formatTokens(agent.tokens)}
            </span>
            <SpentWhere agent={agent} />
          </Stat>
          <Stat label="Cost">
            <Money line={agent} currency={currency} />
          </Stat>
          <Stat label="Runs">{agent.runs}</Stat>
        </dl>
        <section className="space-y-2" aria-label="Current lease">
          <h2 className="text-sm font-semibold">Current lease</h2>
          {agent.lease ? (
            <p className="flex items-center gap-2 text-sm">
              <Link href={`/journal?task=${agent.lease.taskId}&view=thread`} className="hover:underline">
                #{agent.lease.number} {agent.lease.title}
              </Link>
              {agent.lease.leaseExpiresAt && <LeaseCountdown expiresAt={agent.lease.leaseExpiresAt} />}
            </p>
          ) : (
            <p className="text-sm text-neutral-500">No task in progress.</p>
          )}
        </section>
        <section className="space-y-2" aria-label="Its own allowance">
          <h2 className="text-sm font-semibold">Its own allowance</h2>
          <p className="text-xs text-neutral-500 dark:text-neutral-400">
            For its work outside flights. A run in a flight draws on the flight's allowance instead (the Bill, per flight).
          </p>
          {budgets.length === 0 && <p className="text-sm text-neutral-500">No allowance of its own: its runs outside flights are not capped.</p>}
          <ul className="space-y-2">
            {budgets.map((b) => (
              <li key={b.budgetId} className="grid grid-cols-1 items-center gap-x-4 gap-y-1 text-sm sm:grid-cols-[1fr_16rem]" data-testid="budget">
                <span>
                  {b.label || b.budgetId.slice(0, 8)}
                  {b.parentId && <span className="text-xs text-neutral-500"> (sub-budget)</span>}
                </span>
                <BudgetBar allowance={b.allowance} spent={b.spent} exhausted={b.exhausted} label={b.label} />
                {me.data?.kind === "human" && (
                  <div className="sm:col-span-2">
                    <AllowanceEditor budget={b} />
                  </div>
                )}
              </li>
            ))}
          </ul>
        </section>
        <FlightStarts agentId={agent.id} allowance={flightAllowance} mayChange={me.data?.kind === "human"} />
        {me.data?.kind === "human" && <KeyActions agent={agent} />}
        <section className="space-y-2" aria-label="Runs">
          <h2 className="text-sm font-semibold">Runs</h2>
          <RunsTable agentId={agent.id} currency={currency} />
        </section>
        <section className="space-y-2" aria-label="Principles">
          <h2 className="text-sm font-semibold">Principles in its context</h2>
          {principles.isPending && <div className="h-12 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
          {principles.isError && <p className="text-sm text-red-600">Could not load principles: {principles.error.message}</p>}
          {principles.data?.items.length === 0 && <p className="text-sm text-neutral-500">No principles in force yet: every agent's context begins with them once they exist.</p>}
          <ul className="space-y-1 text-sm">
            {principles.data?.items.map((p) => {
              const taught = p.sources.some((s) => s.sourceId === agent.id);
              return (
                <li key={p.id} className="flex items-start gap-2">
                  <span aria-hidden>•</span>
                  <span>
                    {p.text}
                    {taught && <span className="ml-2 rounded bg-accent-50 px-1.5 py-0.5 text-[11px] text-accent-700 dark:bg-neutral-900">learned from its work</span>}
                    {p.pinnedAt && <span className="ml-2 text-xs text-neutral-500">pinned</span>}
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
        <section className="space-y-2" aria-label="Gate rejections">
          <h2 className="text-sm font-semibold">Recent gate rejections</h2>
          {gateRejections.length === 0 && <p className="text-sm text-neutral-500">None: the room's gates have not had to hold it back.</p>}
          <ul className="space-y-1 text-sm">
            {gateRejections.map((g) => (
              <li key={g.eventId} className="flex gap-2">
                <RelativeTime iso={g.t} className="text-xs text-neutral-500 tabular-nums" />
                <span className="font-medium">{g.gate}</span>
                <span className="text-neutral-600 dark:text-neutral-300">
                  #{g.room}: {g.message}
                </span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

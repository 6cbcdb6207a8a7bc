"use client";
// Runs with what they spent, newest first, a page at a time; each opens as a timeline in the Journal. A run is
// named in words (its agent, its task, when it started): its id means nothing to a person, so it is only a tooltip.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../time";
import { Money } from "./agent-table";
import { formatTokens } from "./format";
import { RunStatus } from "./run-status";
import { runName } from "./run-name";
import type { BillPage, RunBill } from "./types";

export function RunsTable({ agentId, currency }: { agentId?: string; currency: string }) {
  const base = agentId ? `/api/agents/${agentId}/runs?limit=25` : "/api/bill/runs?limit=25";
  const runs = useInfiniteQuery({
    queryKey: queryKeys.billRuns(agentId),
    queryFn: ({ pageParam }) => apiGet<BillPage<RunBill>>(`${base}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
  const items = runs.data?.pages.flatMap((p) => p.items) ?? [];
  if (runs.isPending) return <div className="h-24 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (runs.isError) return <p className="text-sm text-red-600">Could not load the runs: {runs.error.message}</p>;
  if (items.length === 0) return <p className="text-sm text-neutral-500">No runs yet: a run begins when an agent takes up a task or a request.</p>;
  return (
    <div>
      <table className="stack-table w-full text-sm" data-testid="runs-table">
        <thead>
          <tr className="text-left text-xs text-neutral-500 dark:text-neutral-400">
            <th className="py-1 font-medium">Run</th>
            <th className="py-1 font-medium">Status</th>
            <th className="py-1 text-right font-medium">Calls</th>
            <th className="py-1 text-right font-medium">Tokens</th>
            <th className="py-1 text-right font-medium">Cost</th>
            <th className="py-1 pl-4 font-medium">Task</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.runId} className="border-t border-neutral-100 dark:border-neutral-900" data-testid="run-row">
              <td data-label="Run" className="py-1.5">
                <div className="min-w-0">
                  <Link
                    href={`/journal?run=${encodeURIComponent(r.runId)}&view=timeline`}
                    title={`Run ${r.runId}: open its timeline`}
                    className="text-accent-600 hover:underline dark:text-accent-500"
                    data-testid="run-name"
                  >
                    {runName(r, !agentId)}
                  </Link>
                  <div className="text-xs text-neutral-500 dark:text-neutral-400">
                    {r.startedAt ? (
                      <>
                        started <RelativeTime iso={r.startedAt} className="" />
                      </>
                    ) : (
                      "start not recorded"
                    )}
                  </div>
                </div>
              </td>
              <td data-label="Status" className="py-1.5">
                <RunStatus status={r.status} />
              </td>
              <td data-label="Calls" className="py-1.5 text-right tabular-nums">
                {r.calls}
              </td>
              <td data-label="Tokens" className="py-1.5 text-right tabular-nums">
                {formatTokens(r.tokens)}
              </td>
              <td data-label="Cost" className="py-1.5 text-right tabular-nums">
                <Money line={r} currency={currency} />
              </td>
              <td data-label="Task" className="py-1.5 pl-4">
                {r.taskId ? (
                  <Link href={`/journal?task=${r.taskId}&view=thread`} className="text-xs text-accent-600 hover:underline dark:text-accent-500">
                    thread
                  </Link>
                ) : (
                  <span className="text-xs text-neutral-400">none</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {runs.hasNextPage && (
        <button
          type="button"
          onClick={() => runs.fetchNextPage()}
          disabled={runs.isFetchingNextPage}
          className="mt-2 text-sm text-accent-600 hover:underline disabled:opacity-50 dark:text-accent-500"
        >
          {runs.isFetchingNextPage ? "Loading…" : "Older runs"}
        </button>
      )}
    </div>
  );
}

"use client";
// The Commitments page: the dependency graph with its critical path, then the ledger with its filters.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { useNow } from "../decisions/countdown";
import { useMe } from "../session";
import { usePrincipals } from "../use-principals";
import type { Page } from "../types";
import { DependencyGraph } from "./dependency-graph";
import { LedgerTable } from "./ledger-table";
import { ProposeForm } from "./propose-form";
import type { Commitment, CommitmentGraph, CommitmentStatus } from "./types";

const STATUSES: CommitmentStatus[] = ["candidate", "confirmed", "fulfilled", "withdrawn"];
const select = "rounded border border-neutral-300 bg-white px-2 py-1 text-xs dark:border-neutral-700 dark:bg-neutral-900";

export function CommitmentsView() {
  const me = useMe().data;
  const now = useNow(30_000);
  const [owner, setOwner] = useState("");
  const [status, setStatus] = useState("");
  const people = (usePrincipals().data?.items ?? []).filter((p) => p.kind !== "system");
  const graph = useQuery({ queryKey: queryKeys.commitmentGraph(), queryFn: () => apiGet<CommitmentGraph>("/api/commitments/graph") });
  const filter = new URLSearchParams({ limit: "100", ...(owner && { owner }), ...(status && { status }) });
  const ledger = useInfiniteQuery({
    queryKey: queryKeys.commitmentLedger(owner, status),
    queryFn: ({ pageParam }) => apiGet<Page<Commitment>>(`/api/commitments?${filter}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const critical = new Set(graph.data?.criticalPath ?? []);
  if (!me) return null;
  return (
    <div className="h-full overflow-y-auto px-6 py-4">
      <div className="mx-auto max-w-6xl space-y-6">
        <section aria-labelledby="graph-title">
          <h1 id="graph-title" className="mb-2 text-lg font-semibold">
            Dependency graph
          </h1>
          {graph.isPending && <div className="h-48 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />}
          {graph.isError && <p className="text-sm text-red-600">Could not load the graph: {graph.error.message}</p>}
          {graph.data && <DependencyGraph graph={graph.data} now={now} />}
        </section>
        <section aria-labelledby="ledger-title" className="space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="ledger-title" className="text-lg font-semibold">
              Ledger
            </h2>
            <ProposeForm />
          </div>
          <div className="flex items-center gap-4">
            <label className="flex items-center gap-2 text-xs">
              Owner
              <select value={owner} onChange={(e) => setOwner(e.target.value)} className={select} data-testid="owner-filter">
                <option value="">anyone</option>
                {people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-2 text-xs">
              Status
              <select value={status} onChange={(e) => setStatus(e.target.value)} className={select} data-testid="status-filter">
                <option value="">any</option>
                {STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
          </div>
          {ledger.isPending && <div className="h-32 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
          {ledger.isError && <p className="text-sm text-red-600">Could not load the ledger: {ledger.error.message}</p>}
          {ledger.isSuccess && items.length === 0 && (
            <p className="rounded-lg border border-dashed border-neutral-300 p-6 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
              {owner || status ? "No commitments match these filters." : "No commitments yet. An agent that says “I'll take it” proposes one; you can too, above."}
            </p>
          )}
          {items.length > 0 && <LedgerTable items={items} me={me} now={now} criticalPath={critical} />}
          {ledger.hasNextPage && (
            <button type="button" onClick={() => ledger.fetchNextPage()} className="text-sm text-accent-600 hover:underline">
              {ledger.isFetchingNextPage ? "Loading…" : "Older commitments"}
            </button>
          )}
        </section>
      </div>
    </div>
  );
}

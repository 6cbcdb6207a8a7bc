"use client";
// The Decisions page: open votes as cards (or every decision), and a form to open a new one.
import { useState } from "react";
import { DecisionCard } from "./decision-card";
import { DecisionTabs } from "./decision-tabs";
import { OpenDecisionForm } from "./open-decision-form";
import { useDecisions } from "./use-decisions";

function Skeleton() {
  return (
    <div className="space-y-3" aria-busy>
      {[0, 1].map((i) => (
        <div key={i} className="h-40 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" />
      ))}
    </div>
  );
}

export function DecisionsView({ view }: { view: "open" | "all" }) {
  const [creating, setCreating] = useState(false);
  const query = useDecisions(view);
  const decisions = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="flex h-full flex-col">
      <DecisionTabs current={view} />
      <div className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
        <div className="mx-auto max-w-3xl space-y-4">
          <div className="flex items-center justify-between">
            <h1 className="text-lg font-semibold">{view === "open" ? "Open decisions" : "All decisions"}</h1>
            {!creating && (
              <button
                type="button"
                onClick={() => setCreating(true)}
                className="rounded-md border border-neutral-300 px-3 py-1 text-sm hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-900"
              >
                New decision
              </button>
            )}
          </div>
          {creating && <OpenDecisionForm onDone={() => setCreating(false)} />}
          {query.isPending && <Skeleton />}
          {query.isError && <p className="text-sm text-red-600">Could not load decisions: {query.error.message}. It retries when the connection returns.</p>}
          {query.isSuccess && decisions.length === 0 && (
            <p className="rounded-lg border border-dashed border-neutral-300 p-6 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
              {view === "open" ? "No open decisions. Agents open one when they disagree; you can open one with “New decision”." : "No decisions yet."}
            </p>
          )}
          <div aria-live="polite" className="space-y-4">
            {decisions.map((d) => (
              <DecisionCard key={d.id} decision={d} />
            ))}
          </div>
          {query.hasNextPage && (
            <button type="button" onClick={() => query.fetchNextPage()} className="text-sm text-accent-600 hover:underline">
              {query.isFetchingNextPage ? "Loading…" : "Older decisions"}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

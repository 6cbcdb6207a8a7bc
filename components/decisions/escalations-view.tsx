"use client";
// The Escalations inbox: each envelope large and plain, one button per option (default marked), time left.
import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiPost, type ApiError } from "../api";
import { withContentKeys } from "../content-keys";
import { useMe } from "../session";
import { Countdown, useNow } from "./countdown";
import { DecisionTabs } from "./decision-tabs";
import type { Decision } from "./types";
import { useEscalations } from "./use-decisions";

function Escalation({ decision }: { decision: Decision }) {
  const me = useMe().data;
  const now = useNow();
  const resolve = useMutation<Decision, ApiError, string>({
    mutationFn: (option) => apiPost<Decision>(`/api/decisions/${decision.id}/resolve`, { option }),
  });
  const lines = (decision.envelope ?? "").split("\n");
  const lapsed = decision.escalationDeadline !== null && Date.parse(decision.escalationDeadline) <= now;
  return (
    <article
      id={`D-${decision.number}`}
      className="scroll-mt-4 rounded-lg border-2 border-red-300 p-5 dark:border-red-900"
      data-testid="escalation"
      data-number={decision.number}
      aria-labelledby={`esc-${decision.id}`}
    >
      <p className="flex items-center justify-between text-xs text-neutral-500 dark:text-neutral-400">
        <span className="font-mono">D-{decision.number} · escalated</span>
        {decision.escalationDeadline && (
          <span>
            default adopted in <Countdown deadline={decision.escalationDeadline} passedLabel="now: the default is being adopted" />
          </span>
        )}
      </p>
      <div id={`esc-${decision.id}`} className="mt-3 space-y-1.5 text-lg leading-snug" data-testid="envelope">
        {withContentKeys(lines, (line) => line).map(({ key, item: line }, i) => (
          <p key={key} className={i === 0 ? "font-semibold" : ""}>
            {line}
          </p>
        ))}
      </div>
      {me?.kind === "human" ? (
        <fieldset className="mt-4 flex flex-wrap gap-2">
          <legend className="sr-only">Choose an option</legend>
          {decision.options.map((option) => {
            const isDefault = option === decision.defaultOption;
            return (
              <button
                key={option}
                type="button"
                disabled={resolve.isPending || lapsed}
                onClick={() => resolve.mutate(option)}
                className={`rounded-md px-4 py-2 text-sm font-medium disabled:opacity-50 ${isDefault ? "border-2 border-accent-600 text-accent-700 hover:bg-accent-50 dark:text-accent-500" : "bg-accent-600 text-white hover:bg-accent-700"}`}
              >
                {option}
                {isDefault && <span className="ml-1.5 text-xs font-normal">(default)</span>}
              </button>
            );
          })}
        </fieldset>
      ) : (
        <p className="mt-4 text-sm text-neutral-500">Only humans resolve escalations.</p>
      )}
      {resolve.isError && (
        <p className="mt-2 text-sm text-red-600" role="alert">
          {resolve.error.message}
        </p>
      )}
    </article>
  );
}

export function EscalationsView() {
  const query = useEscalations();
  const items = [...(query.data?.items ?? [])].sort((a, b) => Date.parse(a.escalationDeadline ?? "") - Date.parse(b.escalationDeadline ?? ""));
  // A link to one envelope (#D-7, from "waiting for you") scrolls to it once the list has arrived.
  const loaded = query.isSuccess;
  useEffect(() => {
    if (loaded && window.location.hash) document.getElementById(window.location.hash.slice(1))?.scrollIntoView({ block: "start" });
  }, [loaded]);
  return (
    <div className="flex h-full flex-col">
      <DecisionTabs current="escalations" />
      <div className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
        <div className="mx-auto max-w-3xl space-y-4">
          <h1 className="text-lg font-semibold">Waiting for a human</h1>
          {query.isPending && <div className="h-48 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />}
          {query.isError && <p className="text-sm text-red-600">Could not load escalations: {query.error.message}. It retries when the connection returns.</p>}
          <div aria-live="polite" className="space-y-4">
            {query.isSuccess && items.length === 0 && (
              <p className="rounded-lg border border-dashed border-neutral-300 p-6 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
                Nothing waits for you. A decision lands here when its timebox passes undecided or its ballots tie; if nobody picks an option in time, its default is adopted.
              </p>
            )}
            {items.map((d) => (
              <Escalation key={d.id} decision={d} />
            ))}
          </div>
          {query.data && query.data.total > items.length && (
            <p className="text-xs text-neutral-500">
              Showing the {items.length} most recent of {query.data.total} escalations.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

"use client";
// The Escalations inbox: each envelope large and plain, one button per option (default marked), time left.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiPost, type ApiError } from "../api";
import { withContentKeys } from "../content-keys";
import { useMe } from "../session";
import { toast } from "../toast";
import { Countdown, useNow } from "./countdown";
import { DecisionTabs } from "./decision-tabs";
import type { Decision } from "./types";
import { useEscalations } from "./use-decisions";

/** How long a choice can be taken back before it is sent, and how long the outcome stays in place after. */
export const UNDO_MS = 10_000;
const OUTCOME_MS = 6_000;

type Phase = { kind: "idle" } | { kind: "confirm"; option: string } | { kind: "pending"; option: string; at: number } | { kind: "sending"; option: string };

function Escalation({ decision, onResolved }: { decision: Decision; onResolved: (resolved: Decision) => void }) {
  const me = useMe().data;
  const now = useNow(250);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const resolve = useMutation<Decision, ApiError, string>({
    mutationFn: (option) => apiPost<Decision>(`/api/decisions/${decision.id}/resolve`, { option }),
    onSuccess: (resolved) => {
      toast(`D-${decision.number} decided: ${resolved.outcome}.`);
      onResolved(resolved);
    },
    onError: () => setPhase({ kind: "idle" }),
  });
  const send = resolve.mutate;
  // The undo window: the choice is sent when it closes (or at once if the page goes away first).
  const pendingOption = phase.kind === "pending" ? phase.option : null;
  const unsent = useRef<string | null>(null);
  unsent.current = pendingOption;
  useEffect(() => {
    if (pendingOption === null) return;
    const timer = setTimeout(() => {
      setPhase({ kind: "sending", option: pendingOption });
      send(pendingOption);
    }, UNDO_MS);
    return () => clearTimeout(timer);
  }, [pendingOption, send]);
  useEffect(
    () => () => {
      if (unsent.current !== null)
        void fetch(`/api/decisions/${decision.id}/resolve`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ option: unsent.current }),
          keepalive: true,
        });
    },
    [decision.id],
  );
  const choose = (option: string) => setPhase(option === decision.defaultOption ? { kind: "pending", option, at: Date.now() } : { kind: "confirm", option });
  const lines = (decision.envelope ?? "").split("\n");
  const lapsed = decision.escalationDeadline !== null && Date.parse(decision.escalationDeadline) <= now;
  const resolved = decision.status !== "escalated";
  return (
    <article
      id={`D-${decision.number}`}
      className={`scroll-mt-4 rounded-lg border-2 p-5 ${resolved ? "border-green-300 dark:border-green-900" : "border-red-300 dark:border-red-900"}`}
      data-testid="escalation"
      data-number={decision.number}
      data-status={decision.status}
      aria-labelledby={`esc-${decision.id}`}
    >
      <p className="flex items-center justify-between text-xs text-neutral-600 dark:text-neutral-300">
        <span className="font-mono">
          D-{decision.number} · {resolved ? "decided" : "escalated"}
        </span>
        {!resolved && decision.escalationDeadline && (
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
      {resolved ? (
        <p className="mt-4 text-base font-medium text-green-900 dark:text-green-200" data-testid="outcome">
          Decided: {decision.outcome}
          {decision.resolvedByName ? ` (by ${decision.resolvedByName})` : ""}. The team has been told.
        </p>
      ) : me?.kind !== "human" ? (
        <p className="mt-4 text-sm text-neutral-600 dark:text-neutral-300">Only humans resolve escalations.</p>
      ) : phase.kind === "confirm" ? (
        <fieldset className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-50">
          <legend className="sr-only">Confirm your choice</legend>
          <p>
            Choose <strong>{phase.option}</strong> over the default, <strong>{decision.defaultOption}</strong>?
          </p>
          <div className="mt-2 flex gap-2">
            <button
              type="button"
              onClick={() => setPhase({ kind: "pending", option: phase.option, at: Date.now() })}
              className="rounded-md bg-accent-600 px-3 py-1.5 font-medium text-white hover:bg-accent-700"
            >
              Yes, choose {phase.option}
            </button>
            <button type="button" onClick={() => setPhase({ kind: "idle" })} className="rounded-md border border-neutral-300 px-3 py-1.5 dark:border-neutral-600">
              Cancel
            </button>
          </div>
        </fieldset>
      ) : phase.kind === "pending" || phase.kind === "sending" ? (
        <div className="mt-4 flex flex-wrap items-center gap-3 text-sm" data-testid="pending-choice">
          <span>
            You chose <strong>{phase.option}</strong>
            {phase.kind === "pending" ? ` — final in ${Math.max(0, Math.ceil((phase.at + UNDO_MS - now) / 1000))} s.` : " — sending…"}
          </span>
          {phase.kind === "pending" && (
            <button type="button" onClick={() => setPhase({ kind: "idle" })} className="rounded-md border border-neutral-300 px-3 py-1.5 font-medium dark:border-neutral-600">
              Undo
            </button>
          )}
        </div>
      ) : (
        <fieldset className="mt-4 flex flex-wrap gap-2">
          <legend className="sr-only">Choose an option</legend>
          {decision.options.map((option) => {
            const isDefault = option === decision.defaultOption;
            return (
              <button
                key={option}
                type="button"
                disabled={lapsed}
                onClick={() => choose(option)}
                className={`rounded-md px-4 py-2 text-sm font-medium disabled:opacity-50 ${isDefault ? "border-2 border-accent-600 text-accent-700 hover:bg-accent-50 dark:text-accent-500" : "bg-accent-600 text-white hover:bg-accent-700"}`}
              >
                {option}
                {isDefault && <span className="ml-1.5 text-xs font-normal">(default)</span>}
              </button>
            );
          })}
        </fieldset>
      )}
      {resolve.isError && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-300" role="alert">
          {resolve.error.message}
        </p>
      )}
      {decision.ballots.length > 0 && (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer text-neutral-700 dark:text-neutral-300">The agents' arguments ({decision.ballots.length} ballots)</summary>
          <ul className="mt-2 space-y-2" data-testid="ballots">
            {decision.ballots.map((b) => (
              <li key={b.id} className="rounded border border-neutral-200 p-2 dark:border-neutral-800">
                <span className="font-medium">{b.voterName}</span> chose <strong>{b.option}</strong>
                <p className="mt-0.5 whitespace-pre-wrap text-neutral-700 dark:text-neutral-300">{b.reasoning}</p>
              </li>
            ))}
          </ul>
          <Link href="/room/general" className="mt-2 inline-block text-accent-700 hover:underline dark:text-accent-500">
            The discussion in #general
          </Link>
        </details>
      )}
    </article>
  );
}

export function EscalationsView() {
  const query = useEscalations();
  // A decision just resolved here stays in place, with its outcome, for a few seconds.
  const [justDecided, setJustDecided] = useState<Decision[]>([]);
  const onResolved = useCallback((resolved: Decision) => {
    setJustDecided((list) => [...list.filter((d) => d.id !== resolved.id), resolved]);
    setTimeout(() => setJustDecided((list) => list.filter((d) => d.id !== resolved.id)), OUTCOME_MS);
  }, []);
  const waiting = (query.data?.items ?? []).filter((d) => !justDecided.some((j) => j.id === d.id));
  const items = [...waiting, ...justDecided].sort((a, b) => Date.parse(a.escalationDeadline ?? "") - Date.parse(b.escalationDeadline ?? ""));
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
              <Escalation key={d.id} decision={d} onResolved={onResolved} />
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

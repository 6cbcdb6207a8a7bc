"use client";
// One decision as a card: the question, options filling with ballots, quorum progress and the timebox.
import { useMe } from "../session";
import { BallotForm } from "./ballot-form";
import { Countdown } from "./countdown";
import { OptionBars } from "./option-bars";
import { DecisionStatusBadge } from "./status-badge";
import type { Decision } from "./types";
import { RelativeTime } from "../time";

function QuorumProgress({ decision }: { decision: Decision }) {
  const cast = decision.ballots.length;
  return (
    <div className="flex items-center gap-2 text-xs text-neutral-600 dark:text-neutral-300">
      <div
        role="progressbar"
        aria-label="Quorum"
        aria-valuemin={0}
        aria-valuemax={decision.quorum}
        aria-valuenow={Math.min(cast, decision.quorum)}
        className="h-1.5 w-24 overflow-hidden rounded bg-neutral-100 dark:bg-neutral-800"
      >
        <div className="h-full bg-neutral-500" style={{ width: `${Math.min(1, cast / decision.quorum) * 100}%` }} />
      </div>
      <span className="tabular-nums" data-testid="quorum">
        {cast} of {decision.quorum} ballots
      </span>
    </div>
  );
}

export function DecisionCard({ decision }: { decision: Decision }) {
  const me = useMe().data;
  const mine = decision.ballots.find((b) => b.voterId === me?.id);
  const open = decision.status === "open";
  return (
    <article className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="decision-card" data-number={decision.number} data-status={decision.status}>
      <header className="flex flex-wrap items-center gap-2 text-xs text-neutral-500 dark:text-neutral-400">
        <span className="font-mono">D-{decision.number}</span>
        <DecisionStatusBadge status={decision.status} />
        <span>opened by {decision.openedByName}</span>
        <span className="ml-auto">
          {open ? (
            <>
              timebox <Countdown deadline={decision.timeboxAt} passedLabel="passed: escalating" />
            </>
          ) : decision.status === "escalated" && decision.escalationDeadline ? (
            <>
              default in <Countdown deadline={decision.escalationDeadline} />
            </>
          ) : (
            decision.decidedAt && (
              <span>
                decided <RelativeTime iso={decision.decidedAt} className="" />
              </span>
            )
          )}
        </span>
      </header>
      <h2 className="mt-2 text-base font-semibold">{decision.question}</h2>
      <p className="mt-0.5 text-xs text-neutral-500 dark:text-neutral-400">If nobody decides: {decision.consequence}</p>
      <div className="mt-3">
        <OptionBars decision={decision} />
      </div>
      <div className="mt-3 flex items-center justify-between">
        <QuorumProgress decision={decision} />
        {decision.outcome && (
          <span className="text-sm">
            Outcome: <strong>{decision.outcome}</strong>
            {decision.resolvedByName && <span className="text-neutral-500"> (by {decision.resolvedByName})</span>}
          </span>
        )}
      </div>
      {open && mine && (
        <p className="mt-3 text-xs text-neutral-600 dark:text-neutral-300">
          You voted <strong>{mine.option}</strong>: {mine.reasoning}
        </p>
      )}
      {open && !mine && me && me.kind !== "system" && <BallotForm decision={decision} />}
    </article>
  );
}

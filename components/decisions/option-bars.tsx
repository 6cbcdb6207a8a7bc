"use client";
// Options as bars that fill with ballots toward the quorum; hovering or focusing one shows each voter's reasoning.
import { useId } from "react";
import type { Decision } from "./types";

export function OptionBars({ decision }: { decision: Decision }) {
  const scale = Math.max(decision.quorum, ...decision.tally.map((t) => t.count), 1);
  const tooltipIds = useId();
  return (
    <ul className="space-y-1.5" aria-label="Options and ballots">
      {decision.tally.map(({ option, count }, i) => {
        const voters = decision.ballots.filter((b) => b.option === option);
        const chosen = decision.outcome === option;
        const tooltipId = `${tooltipIds}-${i}`;
        return (
          <li key={option} className="group relative" data-testid="option-bar" data-option={option} data-count={count}>
            {/* Read as its text (option, count); focusing it shows the voters' reasoning, which is also its description. */}
            <div
              tabIndex={voters.length ? 0 : -1}
              className="rounded focus-visible:outline-2 focus-visible:outline-accent-500"
              aria-describedby={voters.length ? tooltipId : undefined}
            >
              <div className="flex items-baseline justify-between text-sm">
                <span className={chosen ? "font-semibold" : ""}>
                  {option}
                  {option === decision.defaultOption && <span className="ml-1.5 text-[11px] text-neutral-500 dark:text-neutral-400">(default)</span>}
                  {chosen && <span className="ml-1.5 text-[11px] text-green-700 dark:text-green-400">✓ chosen</span>}
                </span>
                <span className="text-xs text-neutral-500 tabular-nums dark:text-neutral-400">
                  {count} <span className="sr-only">ballot{count === 1 ? "" : "s"}</span>
                </span>
              </div>
              <div className="mt-0.5 h-2 overflow-hidden rounded bg-neutral-100 dark:bg-neutral-800">
                <div className={`h-full rounded ${chosen ? "bg-green-600" : "bg-accent-500"}`} style={{ width: `${(count / scale) * 100}%` }} />
              </div>
            </div>
            {voters.length > 0 && (
              <div
                id={tooltipId}
                role="tooltip"
                className="invisible absolute top-full left-0 z-10 mt-1 w-80 rounded-md border border-neutral-200 bg-white p-2 text-xs shadow-lg group-focus-within:visible group-hover:visible dark:border-neutral-700 dark:bg-neutral-900"
              >
                {voters.map((v) => (
                  <p key={v.id} className="py-0.5">
                    <span className="font-semibold">{v.voterName}</span>
                    <span className="text-neutral-500"> ({v.voterKind})</span>: <span className="whitespace-pre-wrap">{v.reasoning}</span>
                  </p>
                ))}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

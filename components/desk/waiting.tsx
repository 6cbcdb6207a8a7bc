"use client";
// The human's desk in the frame: "Waiting for you: N" in the top strip opening a small inbox, and a count
// by each rail page that holds something to decide.
import Link from "next/link";
import { useId, useState } from "react";
import { RelativeTime } from "../time";
import { usePopover } from "../use-popover";
import { FindingActions } from "./finding-actions";
import { HandbackActions } from "./handback-actions";
import { ProposalDialog } from "./proposal-dialog";
import type { WaitingItem, WaitingView } from "./types";
import { hrefOf, sentenceOf, useWaiting } from "./use-waiting";

/** The count by a rail page (Board: reviews, Room: requests, Decisions: escalations); nothing when none wait. */
export function WaitingBadge({ href }: { href: string }) {
  const count = useWaiting().data?.byPage[href as keyof WaitingView["byPage"]] ?? 0;
  if (count === 0) return null;
  return (
    <>
      <span data-testid={`waiting-badge-${href.slice(1)}`} className="ml-auto rounded-full bg-red-700 px-1.5 text-[11px] font-semibold text-white tabular-nums" aria-hidden="true">
        {count}
      </span>
      <span className="sr-only">{` (${count} waiting for you)`}</span>
    </>
  );
}

/** The top strip's pill: the count, and on click the list, each item one click from where it is decided. */
export function WaitingInbox() {
  const waiting = useWaiting();
  const { open, setOpen, box } = usePopover();
  const panelId = useId();
  const total = waiting.data?.total ?? 0;
  // A proposed flight opens its dialog over the page: the panel closes, the dialog stays until it is decided or let be.
  const [proposal, setProposal] = useState<Extract<WaitingItem, { kind: "proposal" }> | null>(null);

  return (
    <div ref={box} className="relative">
      <button
        type="button"
        data-testid="waiting-for-you"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className={`rounded px-1.5 py-0.5 whitespace-nowrap ${total > 0 ? "bg-red-100 font-medium text-red-900 dark:bg-red-900/60 dark:text-red-50" : "text-neutral-600 dark:text-neutral-300"}`}
      >
        <span className="max-md:sr-only">waiting for you: </span>
        <strong className="tabular-nums">{waiting.isPending ? "…" : total}</strong>
        <span className="md:hidden"> waiting</span>
      </button>
      {/* On a phone the panel spans the screen under the top strip: anchored to the pill it ran off the left edge. */}
      {open && (
        <div
          id={panelId}
          data-testid="waiting-inbox"
          className="z-30 mt-1 rounded-lg border border-neutral-200 bg-white shadow-lg max-md:fixed max-md:inset-x-2 max-md:top-11 md:absolute md:top-full md:left-0 md:w-[24rem] dark:border-neutral-700 dark:bg-neutral-900"
        >
          <h2 className="border-b border-neutral-200 px-3 py-2 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:border-neutral-700 dark:text-neutral-300">
            Waiting for you
          </h2>
          {waiting.isError && <p className="px-3 py-3 text-sm text-red-700 dark:text-red-300">Could not load what waits for you: {waiting.error.message}.</p>}
          {waiting.isSuccess && total === 0 && (
            <p className="px-3 py-3 text-sm text-neutral-600 dark:text-neutral-300">
              Nothing waits for you. Escalations, reviews you approve, requests addressed to you and issues labelled for the team appear here.
            </p>
          )}
          {waiting.isSuccess && total > 0 && (
            <ul className="max-h-96 divide-y divide-neutral-200 overflow-y-auto dark:divide-neutral-800">
              {waiting.data.items.map((item) => {
                const { lead, text } = sentenceOf(item);
                if (item.kind === "proposal") {
                  return (
                    <li key={item.key} data-key={item.key}>
                      <button
                        type="button"
                        onClick={() => {
                          setOpen(false);
                          setProposal(item);
                        }}
                        data-testid="waiting-item"
                        data-kind={item.kind}
                        className="block w-full px-3 py-2 text-left text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800"
                      >
                        <span className="flex items-baseline justify-between gap-2">
                          <span className="font-medium">{lead}</span>
                          <RelativeTime iso={item.since} />
                        </span>
                        <span className="line-clamp-2 text-neutral-700 dark:text-neutral-300">{text}</span>
                      </button>
                    </li>
                  );
                }
                if (item.kind === "handback") {
                  // Its answers are buttons, so the item is not one link.
                  return (
                    <li key={item.key} data-key={item.key} data-testid="waiting-item" data-kind={item.kind} className="px-3 py-2 text-sm">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="font-medium">{lead}</span>
                        <RelativeTime iso={item.since} />
                      </span>
                      <span className="line-clamp-3 text-neutral-700 dark:text-neutral-300">{text}</span>
                      <HandbackActions item={item} onDone={() => setOpen(false)} />
                    </li>
                  );
                }
                return (
                  <li key={item.key} data-key={item.key}>
                    <Link
                      href={hrefOf(item)}
                      onClick={() => setOpen(false)}
                      data-testid="waiting-item"
                      data-kind={item.kind}
                      className="block px-3 py-2 text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800"
                    >
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="font-medium">{lead}</span>
                        <RelativeTime iso={item.since} />
                      </span>
                      <span className="line-clamp-2 text-neutral-700 dark:text-neutral-300">
                        {item.kind === "finding" && (
                          <abbr title={item.name} className="mr-1.5 font-mono text-xs no-underline">
                            {item.mode}
                          </abbr>
                        )}
                        {text}
                      </span>
                    </Link>
                    {item.kind === "finding" && (
                      <div className="px-3 pb-2">
                        <FindingActions item={item} />
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
      <ProposalDialog proposal={proposal} onClose={() => setProposal(null)} />
    </div>
  );
}

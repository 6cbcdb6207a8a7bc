"use client";
// The Board's flights: each goal the team flies, at a glance — its number and goal, its status in a word,
// the branch the work lands on, its tasks by status and its spend against its allowance. Each opens its goal.
import { checksInWords } from "./pull-request-panel";
import Link from "next/link";
import { useState } from "react";
import { findingAnchor } from "../diagnosis/finding-anchor";
import { StagePill } from "./flight-merge";
import { SetupLine } from "./flight-setup";
import { STATUS_LABEL, type TaskStatus } from "./types";
import { type FlightView, useFlights } from "./use-flights";

/** While its setup runs, a flight says so instead of "Working". */
const SETTING_UP = { word: "Setting up", style: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100" };

/** How many of the newest flights show before "all". */
const SHOWN = 3;

function taskCounts(flight: FlightView): string {
  if (flight.tasks.length === 0) return flight.status === "planning" ? "no tasks yet" : "no tasks";
  const by = new Map<TaskStatus, number>();
  for (const task of flight.tasks) by.set(task.status, (by.get(task.status) ?? 0) + 1);
  const parts = (["done", "review", "in_progress", "ready", "cancelled"] as const).filter((s) => by.has(s)).map((s) => `${by.get(s)} ${STATUS_LABEL[s].toLowerCase()}`);
  return `${flight.tasks.length} ${flight.tasks.length === 1 ? "task" : "tasks"}: ${parts.join(", ")}`;
}

function Spend({ budget }: { budget: FlightView["budget"] }) {
  if (!budget) return <span className="text-neutral-500 dark:text-neutral-400">no allowance</span>;
  const share = budget.allowance > 0 ? budget.spent / budget.allowance : 0;
  const bar = share >= 1 ? "bg-red-600" : share >= 0.8 ? "bg-amber-500" : "bg-accent-600";
  const tokens = (n: number) => n.toLocaleString("en-US");
  return (
    <span className="flex min-w-0 items-center gap-1.5" title={`${tokens(budget.spent)} of ${tokens(budget.allowance)} tokens spent`}>
      <span aria-hidden className="h-1.5 w-14 shrink-0 overflow-hidden rounded-full bg-neutral-200 dark:bg-neutral-800">
        <span className={`block h-full ${bar}`} style={{ width: `${Math.min(100, Math.round(share * 100))}%` }} />
      </span>
      <span className="truncate tabular-nums">
        {tokens(budget.spent)} / {tokens(budget.allowance)} tokens
      </span>
    </span>
  );
}

/** The first high finding of the monitor on the flight (a failure past a gate), and how many more. */
function Alerts({ alerts }: { alerts: FlightView["alerts"] }) {
  const [first, ...more] = alerts;
  if (!first) return null;
  return (
    <span className="mt-1 flex min-w-0 items-baseline gap-1.5 text-red-900 dark:text-red-100" data-testid="flight-alert">
      <span className="shrink-0 rounded bg-red-100 px-1.5 py-px text-[11px] font-semibold dark:bg-red-900/60">
        <span aria-hidden>⚠ </span>
        {first.mode} {first.name}
      </span>
      <span className="min-w-0 flex-1 truncate" title={first.sentence}>
        {first.sentence}
      </span>
      {more.length > 0 && <span className="shrink-0">+{more.length} more</span>}
    </span>
  );
}

function FlightRow({ flight }: { flight: FlightView }) {
  const settingUp = flight.setup?.status === "running" && flight.status !== "red";
  const [alert] = flight.alerts;
  return (
    // min-w-0: a grid item is as wide as its content by default, and a long goal or branch must truncate, not widen the page.
    <li className="min-w-0">
      <Link
        href={`/board/${flight.goalTask.number}${alert ? `#${findingAnchor(alert.key)}` : ""}`}
        data-testid="flight"
        data-flight-number={flight.number}
        data-status={flight.status}
        data-stage={flight.stage}
        className="block rounded-md border border-neutral-200 bg-white px-2.5 py-1.5 text-xs shadow-xs hover:border-accent-500 dark:border-neutral-800 dark:bg-neutral-900"
      >
        <span className="flex items-center gap-2">
          <span className="shrink-0 font-semibold">Flight {flight.number}</span>
          {settingUp ? <span className={`shrink-0 rounded px-1.5 py-px text-[11px] font-semibold ${SETTING_UP.style}`}>{SETTING_UP.word}</span> : <StagePill flight={flight} />}
          <span className="min-w-0 flex-1 truncate text-sm" title={flight.goal}>
            {flight.goal}
          </span>
          <span className="shrink-0 font-mono text-[11px] text-neutral-500 dark:text-neutral-400">goal #{flight.goalTask.number}</span>
        </span>
        <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-neutral-600 dark:text-neutral-300">
          <span className="font-mono break-all" data-testid="flight-branch">
            {flight.branch}
          </span>
          {/* Inside the card's link, so words: the pull request's own link is on the goal's review. */}
          {flight.issueNumber && <span data-testid="flight-card-issue">from issue #{flight.issueNumber}</span>}
          {flight.pullRequest && (
            <span data-testid="flight-card-pull-request">
              {flight.pullRequest.draft ? "draft " : ""}pull request #{flight.pullRequest.number}
              {checksInWords(flight.pullRequest) && ` · checks: ${checksInWords(flight.pullRequest)}`}
            </span>
          )}
          <span data-testid="flight-tasks">{taskCounts(flight)}</span>
          <Spend budget={flight.budget} />
        </span>
        <SetupLine setup={flight.setup} />
        <Alerts alerts={flight.alerts} />
      </Link>
    </li>
  );
}

export function FlightStrip() {
  const flights = useFlights();
  const [allOpen, setAllOpen] = useState(false);
  const [showFinished, setShowFinished] = useState(false);
  const items = flights.data?.items ?? [];
  if (flights.isPending) return <div className="mx-3 mt-3 h-12 animate-pulse rounded-md bg-neutral-100 md:mx-6 dark:bg-neutral-900" aria-busy />;
  if (items.length === 0) {
    return (
      <p className="px-3 pt-3 text-xs text-neutral-600 md:px-6 dark:text-neutral-400" data-testid="flights-empty">
        No flights yet — <strong className="font-semibold">New flight</strong> gives the team a goal on a repository of yours.
      </p>
    );
  }
  const open = items.filter((f) => !f.finished);
  const finished = items.filter((f) => f.finished);
  const shown = [...(allOpen ? open : open.slice(0, SHOWN)), ...(showFinished ? finished : [])];
  const toggle = "text-xs text-accent-700 hover:underline dark:text-accent-500";
  return (
    <section aria-labelledby="flights-heading" className="px-3 pt-3 md:px-6" data-testid="flights">
      <div className="mb-1.5 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id="flights-heading" className="text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">
          Flights
        </h2>
        {open.length > SHOWN && (
          <button type="button" aria-expanded={allOpen} onClick={() => setAllOpen(!allOpen)} className={toggle}>
            {allOpen ? "Show the newest" : `Show all ${open.length} open`}
          </button>
        )}
        {finished.length > 0 && (
          <button type="button" aria-expanded={showFinished} onClick={() => setShowFinished(!showFinished)} className={toggle} data-testid="flights-finished">
            {showFinished ? `Hide ${finished.length} finished` : `${finished.length} finished`}
          </button>
        )}
      </div>
      {shown.length === 0 && <p className="text-xs text-neutral-600 dark:text-neutral-400">Every flight is merged or closed.</p>}
      <ul aria-live="polite" className={`grid grid-cols-1 gap-2 lg:grid-cols-2 2xl:grid-cols-3 ${shown.length > SHOWN ? "max-h-64 overflow-y-auto" : ""}`}>
        {shown.map((flight) => (
          <FlightRow key={flight.id} flight={flight} />
        ))}
      </ul>
    </section>
  );
}

"use client";
// The Board page: four columns plus a collapsed Cancelled row, a filter (`/`), create (`c`), and the drawer.
import { useSearchParams } from "next/navigation";
import { type RefObject, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useMe } from "../session";
import { Column, useCancelledCount } from "./column";
import { useColumn } from "./use-board";
import { CreateTaskDialog } from "./create-task-dialog";
import { FlightStrip } from "./flight-strip";
import { NewFlightButton } from "./new-flight-button";
import { TaskDrawer } from "./task-drawer";
import { COLUMNS } from "./types";

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

/** `/board?task=ID` opens that task's drawer; `&review=1` focuses its Review button (links from "waiting for you"). */
function OpenFromUrl({ onOpen }: { onOpen: (id: string, review: boolean) => void }) {
  const params = useSearchParams();
  const task = params.get("task");
  const review = params.get("review") === "1";
  useEffect(() => {
    if (task) onOpen(task, review);
  }, [task, review, onOpen]);
  return null;
}

/**
 * On a phone the board shows one column at a time: it opens on the first column with tasks in it, not on an
 * empty Ready, once the four columns have loaded (and only then, so it never pulls the page from under a swipe).
 */
function useFirstBusyColumn(columns: RefObject<HTMLDivElement | null>) {
  const ready = useColumn("ready");
  const inProgress = useColumn("in_progress");
  const review = useColumn("review");
  const done = useColumn("done");
  const placed = useRef(false);
  const counts = [ready, inProgress, review, done].map((q) => (q.data ? q.data.pages[0].items.length : null));
  useEffect(() => {
    const container = columns.current;
    if (placed.current || !container || counts.some((n) => n === null)) return;
    placed.current = true;
    if (!window.matchMedia("(max-width: 767px)").matches) return;
    const first = counts.findIndex((n) => (n ?? 0) > 0);
    const target = first > 0 ? container.querySelector<HTMLElement>(`[data-testid="column-${COLUMNS[first].status}"]`) : null;
    target?.scrollIntoView({ inline: "start", block: "nearest", behavior: "instant" });
  });
}

export function BoardView() {
  const me = useMe();
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const [focusReview, setFocusReview] = useState(false);
  const [creating, setCreating] = useState(false);
  const [showCancelled, setShowCancelled] = useState(false);
  const filterInput = useRef<HTMLInputElement>(null);
  const columns = useRef<HTMLDivElement>(null);
  useFirstBusyColumn(columns);
  const cancelledCount = useCancelledCount();
  const openFromUrl = useCallback((id: string, review: boolean) => {
    setSelected(id);
    setFocusReview(review);
  }, []);
  const openCard = useCallback((id: string) => {
    setSelected(id);
    setFocusReview(false);
  }, []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey || typingInto(event.target) || document.querySelector("dialog[open]")) return;
      if (event.key === "c") {
        event.preventDefault();
        setCreating(true);
      } else if (event.key === "/") {
        event.preventDefault();
        filterInput.current?.focus();
      } else if (event.key === "Escape") {
        setSelected(null);
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  if (!me.data) return null;
  return (
    <div className="flex h-full min-h-0">
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-neutral-200 px-3 py-2 md:px-6 dark:border-neutral-800">
          <h1 className="text-sm font-semibold">Board</h1>
          <label className="relative order-last min-w-0 basis-full sm:order-none sm:ml-2 sm:basis-auto sm:flex-1">
            <span className="sr-only">Filter tasks</span>
            <input
              ref={filterInput}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== "Escape") return;
                setFilter("");
                e.currentTarget.blur();
              }}
              placeholder="Filter by title, #number, owner or approver  ( / )"
              className="w-full max-w-md rounded-md border border-neutral-300 bg-white px-2.5 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-950"
            />
          </label>
          <NewFlightButton
            className="ml-auto rounded-md border border-accent-600 px-3 py-1 text-sm font-medium text-accent-700 hover:bg-accent-50 sm:ml-0 dark:text-accent-500 dark:hover:bg-neutral-800"
            onStarted={(flight) => setSelected(flight.goalTask.id)}
          />
          <button
            type="button"
            onClick={() => setCreating(true)}
            className="rounded-md bg-accent-600 px-3 py-1 text-sm font-medium text-white hover:bg-accent-700"
            aria-keyshortcuts="c"
          >
            New task <kbd className="ml-1 rounded bg-white/20 px-1 font-mono text-[10px]">c</kbd>
          </button>
        </div>
        <FlightStrip />
        <div
          ref={columns}
          className="relative flex min-h-0 flex-1 snap-x snap-mandatory scroll-px-3 gap-3 overflow-x-auto px-3 pt-4 pb-2 md:snap-none md:gap-4 md:px-6"
          data-testid="board-columns"
          // Made to scroll sideways: a phone shows one column at a time, and a drawer beside the board never squeezes them.
          data-scrolls="sideways"
        >
          {COLUMNS.map((column) => (
            <Column key={column.status} {...column} filter={filter} selected={selected} onOpen={openCard} />
          ))}
        </div>
        <div className="border-t border-neutral-200 px-3 py-2 md:px-6 dark:border-neutral-800">
          <button
            type="button"
            aria-expanded={showCancelled}
            aria-controls="cancelled-tasks"
            onClick={() => setShowCancelled(!showCancelled)}
            className="flex items-center gap-2 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300"
          >
            <span aria-hidden>{showCancelled ? "▾" : "▸"}</span>
            Cancelled <span className="font-normal text-neutral-500 tabular-nums">{cancelledCount}</span>
          </button>
          {showCancelled && (
            <div id="cancelled-tasks" className="mt-2 max-h-64 overflow-y-auto pb-2">
              <Column status="cancelled" label="Cancelled" filter={filter} selected={selected} onOpen={openCard} layout="row" />
            </div>
          )}
        </div>
      </div>
      <Suspense>
        <OpenFromUrl onOpen={openFromUrl} />
      </Suspense>
      {selected && <TaskDrawer key={selected} id={selected} me={me.data} focusReview={focusReview} onClose={() => setSelected(null)} />}
      <CreateTaskDialog me={me.data} open={creating} onClose={() => setCreating(false)} onCreated={(task) => setSelected(task.id)} />
    </div>
  );
}

"use client";
// One column of the board: its cards (filtered), a skeleton while loading, and more on demand. A column never
// narrows below 14rem: with a task's drawer open the board scrolls sideways instead of squeezing the cards.
import { STATUS_DOT } from "./status-badge";
import { TaskCard } from "./task-card";
import type { Task, TaskStatus } from "./types";
import { useColumn } from "./use-board";

export function matches(task: Task, filter: string): boolean {
  if (!filter) return true;
  const haystack = `#${task.number} ${task.title} ${task.ownerName ?? ""} ${task.approverName}`.toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

const EMPTY: Record<TaskStatus, string> = {
  ready: "No ready tasks — the orchestrator files them when a goal is posted, or press c.",
  in_progress: "Nobody is working. Agents claim ready tasks.",
  review: "Nothing to review.",
  done: "Nothing finished yet.",
  cancelled: "Nothing cancelled.",
};

export function Column({
  status,
  label,
  filter,
  selected,
  onOpen,
  layout = "column",
}: {
  status: TaskStatus;
  label: string;
  filter: string;
  selected: string | null;
  onOpen: (id: string) => void;
  layout?: "column" | "row";
}) {
  const query = useColumn(status);
  const loaded = query.data?.pages.flatMap((p) => p.items) ?? [];
  const shown = loaded.filter((t) => matches(t, filter));
  return (
    <section
      aria-label={label}
      data-testid={`column-${status}`}
      className={layout === "column" ? "flex min-h-0 w-[calc(100vw-1.5rem)] shrink-0 snap-start flex-col md:w-auto md:min-w-56 md:flex-1 md:shrink" : ""}
    >
      {layout === "column" && (
        <h2 className="flex items-center gap-2 px-1 pb-2 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">
          <span className={`h-2 w-2 rounded-full ${STATUS_DOT[status]}`} aria-hidden />
          {label}
          <span className="font-normal text-neutral-600 tabular-nums dark:text-neutral-300">
            {filter ? `${shown.length} of ${loaded.length}` : loaded.length}
            {query.hasNextPage ? "+" : ""}
          </span>
        </h2>
      )}
      <div className={layout === "column" ? "min-h-0 flex-1 overflow-y-auto rounded-lg bg-neutral-100/70 p-2 dark:bg-neutral-900/50" : ""}>
        {query.isPending && (
          <div className="space-y-2" aria-busy>
            {[0, 1].map((i) => (
              <div key={i} className="h-20 animate-pulse rounded-md bg-neutral-200/70 dark:bg-neutral-800" />
            ))}
          </div>
        )}
        {/* A failure is said once for the page, with Retry (components/page-errors.tsx). */}
        {query.isError && <p className="p-2 text-xs text-neutral-600 dark:text-neutral-300">Not loaded.</p>}
        {query.isSuccess && shown.length === 0 && (
          <p className="p-2 text-xs text-neutral-600 dark:text-neutral-300">{filter && loaded.length ? "No card matches the filter." : EMPTY[status]}</p>
        )}
        <ul className={layout === "column" ? "space-y-2" : "grid grid-cols-[repeat(auto-fill,minmax(16rem,1fr))] gap-2"}>
          {shown.map((task) => (
            <TaskCard key={task.id} task={task} selected={task.id === selected} onOpen={onOpen} />
          ))}
        </ul>
        {query.hasNextPage && (
          <button
            type="button"
            onClick={() => query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            className="mt-2 w-full rounded border border-neutral-300 py-1 text-xs hover:bg-white dark:border-neutral-700 dark:hover:bg-neutral-800"
          >
            {query.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        )}
      </div>
    </section>
  );
}

/** The cancelled tasks' count, for the collapsed drawer's toggle. */
export function useCancelledCount(): string {
  const query = useColumn("cancelled");
  const n = query.data?.pages.reduce((sum, p) => sum + p.items.length, 0) ?? 0;
  return query.isSuccess ? `${n}${query.hasNextPage ? "+" : ""}` : "…";
}

"use client";
// One error banner per page: whatever the page's queries failed to load is said once, with Retry, instead
// of in every panel that reads it. A query counts while something on the page watches it, unless it says its
// refusal where it was asked (`meta: { answersInPlace: true }`: a form field checked as the human types).
import { useQueryClient, type Query } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";

function failedOn(query: Query): boolean {
  return query.state.status === "error" && query.getObserversCount() > 0 && query.meta?.answersInPlace !== true;
}

export function PageErrorBanner() {
  const client = useQueryClient();
  const cache = client.getQueryCache();
  const subscribe = useCallback((changed: () => void) => cache.subscribe(changed), [cache]);
  // A string snapshot: the first failure's words and how many failed (stable between renders).
  const snapshot = useSyncExternalStore(
    subscribe,
    () => {
      const failed = cache.getAll().filter(failedOn);
      return failed.length === 0 ? "" : `${failed.length}\n${(failed[0].state.error as Error | null)?.message ?? "the server did not answer"}`;
    },
    () => "",
  );
  if (!snapshot) return null;
  const [count, message] = snapshot.split("\n");
  return (
    <div
      role="alert"
      data-testid="page-error"
      className="flex flex-wrap items-center gap-3 border-b border-red-200 bg-red-50 px-3 py-2 text-sm text-red-950 md:px-6 dark:border-red-900 dark:bg-red-950/60 dark:text-red-50"
    >
      <span className="min-w-0 flex-1">
        {count === "1" ? "Part of this page could not load" : `${count} parts of this page could not load`}: {message}. Check that Quorum is running, then retry.
      </span>
      <button
        type="button"
        onClick={() => client.refetchQueries({ predicate: failedOn })}
        className="rounded-md border border-red-300 bg-white px-3 py-1 font-medium hover:bg-red-100 dark:border-red-700 dark:bg-red-950 dark:hover:bg-red-900"
      >
        Retry
      </button>
    </div>
  );
}

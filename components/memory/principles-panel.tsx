"use client";
// The principles panel: principles in force with their sources, recent lessons, and the human pin.
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { apiGet, apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import { useMe } from "../session";
import type { Page } from "../types";
import type { Lesson, Principle } from "./types";

const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800";

function why(p: Principle): string {
  const parts: string[] = [];
  if (p.promotedAt) {
    const agents = new Set(p.sources.map((s) => s.sourceId)).size;
    const tasks = new Set(p.sources.map((s) => s.taskId).filter(Boolean)).size;
    parts.push(`learned ${agents >= 2 ? `by ${agents} sources` : `on ${tasks} tasks`}`);
  }
  if (p.pinnedAt) parts.push(`pinned by ${p.pinnedByName}`);
  return parts.join(" · ");
}

export function PrinciplesPanel() {
  const me = useMe().data;
  const human = me?.kind === "human";
  const principles = useQuery({ queryKey: queryKeys.principles(), queryFn: () => apiGet<Page<Principle>>("/api/principles") });
  const lessons = useInfiniteQuery({
    queryKey: queryKeys.lessons(),
    queryFn: ({ pageParam }) => apiGet<Page<Lesson>>(`/api/lessons?limit=30${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
  const act = useMutation<unknown, ApiError, { path: string; body: unknown }>({ mutationFn: ({ path, body }) => apiPost(path, body) });
  const inForce = new Set((principles.data?.items ?? []).map((p) => p.key));
  const recent = lessons.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="space-y-6">
      <section aria-labelledby="principles-title">
        <h1 id="principles-title" className="text-lg font-semibold">
          Principles
        </h1>
        <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">
          Put at the head of every agent&apos;s context (their tokens count against its budget). A lesson becomes a principle when two independent sources learn it (different
          agents, or different tasks), or when a human pins it.
        </p>
        {principles.isPending && <div className="mt-3 h-20 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
        {principles.isError && <p className="mt-3 text-sm text-red-600">Could not load principles: {principles.error.message}</p>}
        {principles.data?.items.length === 0 && (
          <p className="mt-3 rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
            No principles yet. They appear when agents record the same lesson from separate work, or when you pin a lesson below.
          </p>
        )}
        <ul className="mt-3 space-y-2" data-testid="principles">
          {principles.data?.items.map((p) => (
            <li key={p.id} className="rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" data-testid="principle">
              <div className="flex items-start justify-between gap-3">
                <p className="text-sm font-medium">{p.text}</p>
                {human && (
                  <button
                    type="button"
                    className={button}
                    disabled={act.isPending}
                    onClick={() => act.mutate({ path: `/api/principles/${p.id}/${p.pinnedAt ? "unpin" : "pin"}`, body: {} })}
                  >
                    {p.pinnedAt ? "Unpin" : "Pin"}
                  </button>
                )}
              </div>
              <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">{why(p)}</p>
              {p.sources.length > 0 && (
                <details className="mt-1 text-xs">
                  <summary className="cursor-pointer text-neutral-600 dark:text-neutral-300">
                    {p.sources.length} source lesson{p.sources.length === 1 ? "" : "s"}
                  </summary>
                  <ul className="mt-1 space-y-0.5 pl-4">
                    {p.sources.map((s) => (
                      <li key={s.id}>
                        <strong>{s.sourceName}</strong>
                        {s.taskId && <span className="font-mono text-neutral-500"> task {s.taskId.slice(0, 8)}</span>}: {s.text}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
        </ul>
        {act.isError && (
          <p className="mt-2 text-sm text-red-600" role="alert">
            {act.error.message}
          </p>
        )}
      </section>
      <section aria-labelledby="lessons-title">
        <h2 id="lessons-title" className="text-base font-semibold">
          Recent lessons
        </h2>
        {lessons.isPending && <div className="mt-3 h-20 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
        {lessons.isError && <p className="mt-3 text-sm text-red-600">Could not load lessons: {lessons.error.message}</p>}
        {lessons.isSuccess && recent.length === 0 && <p className="mt-2 text-sm text-neutral-500">No lessons yet: agents record them when their work finishes.</p>}
        <ul className="mt-2 divide-y divide-neutral-100 dark:divide-neutral-900">
          {recent.map((l) => (
            <li key={l.id} className="flex items-start justify-between gap-3 py-1.5 text-sm">
              <span>
                {l.text}
                <span className="ml-2 text-xs text-neutral-500 dark:text-neutral-400">— {l.sourceName}</span>
              </span>
              {inForce.has(l.key) ? (
                <span className="text-xs whitespace-nowrap text-green-700 dark:text-green-400">in force</span>
              ) : (
                human && (
                  <button type="button" className={button} disabled={act.isPending} onClick={() => act.mutate({ path: "/api/principles", body: { lessonId: l.id } })}>
                    Pin
                  </button>
                )
              )}
            </li>
          ))}
        </ul>
        {lessons.hasNextPage && (
          <button type="button" onClick={() => lessons.fetchNextPage()} className="mt-2 text-sm text-accent-600 hover:underline">
            Older lessons
          </button>
        )}
      </section>
    </div>
  );
}

"use client";
// The line a view of the journal draws where what it shows meets an archived month: "Events before 1 Nov 2026
// are archived (quorum journal restore …)". The archived months come from GET /api/journal/archives.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { archivedSentence, restoreCommand, type ArchivedPlace } from "./archived-words";
import type { JournalArchive } from "./types";

/** Every archived month, or those holding one run's or one task's events. */
export function useJournalArchives(scope: { run?: string; task?: string } = {}) {
  const search = scope.run ? `?run=${encodeURIComponent(scope.run)}` : scope.task ? `?task=${encodeURIComponent(scope.task)}` : "";
  return useQuery({
    queryKey: queryKeys.journalArchives(search || "all"),
    queryFn: () => apiGet<{ items: JournalArchive[] }>(`/api/journal/archives${search}`),
  });
}

export function ArchivedLine({ archives, place, as: Tag = "p" }: { archives: readonly JournalArchive[]; place: ArchivedPlace; as?: "p" | "li" }) {
  if (archives.length === 0) return null;
  const { command, more } = restoreCommand(archives);
  return (
    // The note is inside the item: an <li> whose role is overridden is no list item to a screen reader (axe's `list`).
    <Tag
      data-testid="archived-line"
      className={`bg-neutral-50 py-2 text-xs text-neutral-700 dark:bg-neutral-900 dark:text-neutral-200 ${place === "end" || place === "gap" ? "border-b border-neutral-200 px-3 md:px-6 dark:border-neutral-800" : "rounded border border-neutral-200 px-3 dark:border-neutral-800"}`}
    >
      <span role="note">
        {archivedSentence(archives, place)} (<code className="font-mono break-all">{command}</code>
        {more > 0 && ` and ${more} more file${more === 1 ? "" : "s"} beside it`}).
      </span>
    </Tag>
  );
}

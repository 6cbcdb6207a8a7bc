"use client";
// A finding on the desk: the human answers it — Acknowledge (seen, with a note) or Not a failure — and it leaves
// what waits (POST /api/diagnosis/answers). Both answers are journalled, for the monitor to be measured against.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiPost } from "../api";
import { queryKeys } from "../query-keys";
import { toast } from "../toast";
import type { WaitingItem } from "./types";

type Finding = Extract<WaitingItem, { kind: "finding" }>;
type Verdict = "acknowledged" | "not_a_failure";

export function FindingActions({ item }: { item: Finding }) {
  const queryClient = useQueryClient();
  const [noting, setNoting] = useState(false);
  const [note, setNote] = useState("");
  const noteId = useId();
  const answer = useMutation({
    mutationFn: (verdict: Verdict) => apiPost(`/api/diagnosis/answers`, { key: item.findingKey, verdict, ...(note.trim() && { note: note.trim() }) }),
    onSuccess: (_answer, verdict) => {
      toast(verdict === "acknowledged" ? `${item.mode} acknowledged.` : `${item.mode} marked as not a failure.`);
      void queryClient.invalidateQueries({ queryKey: queryKeys.waiting() });
    },
  });
  const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs font-medium hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-600 dark:hover:bg-neutral-800";
  return (
    <div data-testid="finding-actions" className="mt-1 space-y-1">
      {noting && (
        <div className="flex items-center gap-2">
          <label htmlFor={noteId} className="sr-only">
            Note
          </label>
          <input
            id={noteId}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Note (optional)"
            maxLength={2000}
            className="min-w-0 flex-1 rounded border border-neutral-300 px-2 py-0.5 text-xs dark:border-neutral-600 dark:bg-neutral-950"
          />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={button} disabled={answer.isPending} onClick={() => (noting ? answer.mutate("acknowledged") : setNoting(true))}>
          {noting ? "Save acknowledgement" : "Acknowledge"}
        </button>
        <button type="button" className={button} disabled={answer.isPending} onClick={() => answer.mutate("not_a_failure")}>
          Not a failure
        </button>
        {answer.isError && (
          <span role="alert" className="text-xs text-red-700 dark:text-red-300">
            {answer.error.message}
          </span>
        )}
      </div>
    </div>
  );
}

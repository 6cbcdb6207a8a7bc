"use client";
// A human resumes a halted or stopped run: the team's worker carries it on from its journal, and the header
// shows the request live (the run's timeline is fed by the journal's stream).
import { useMutation } from "@tanstack/react-query";
import { apiPost, type ApiError } from "../api";

export function ResumeRun({ runId }: { runId: string }) {
  const resume = useMutation<unknown, ApiError>({
    mutationFn: () => apiPost(`/api/runs/${encodeURIComponent(runId)}/resume`, {}),
  });
  return (
    <span className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        onClick={() => resume.mutate()}
        disabled={resume.isPending}
        className="rounded border border-accent-500 px-2 py-0.5 text-xs font-medium text-accent-600 hover:bg-accent-50 disabled:opacity-50 dark:text-accent-500 dark:hover:bg-neutral-900"
      >
        Resume run
      </button>
      {resume.isError && (
        <span role="alert" className="text-xs text-red-600">
          {resume.error.message}
        </span>
      )}
    </span>
  );
}

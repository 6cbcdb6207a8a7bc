"use client";
// A human asks a running run to stop; it stops at its next turn boundary, and the header shows the request live.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";

export function StopRun({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const stop = useMutation<unknown, ApiError, string>({
    mutationFn: (why) => apiPost(`/api/runs/${encodeURIComponent(runId)}/stop`, { reason: why }),
    onSuccess: () => setOpen(false),
  });
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded border border-red-300 px-2 py-0.5 text-xs text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
      >
        Stop run
      </button>
    );
  }
  return (
    <form
      className="flex w-full flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        stop.mutate(reason);
      }}
    >
      <input
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder="Why stop it? The run ends at its next turn boundary and can be resumed."
        aria-label="Reason for stopping the run"
        className="min-w-64 flex-1 rounded border border-neutral-300 px-2 py-0.5 text-xs dark:border-neutral-700 dark:bg-neutral-900"
      />
      <button type="submit" disabled={!reason.trim() || stop.isPending} className="rounded bg-red-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50">
        Stop at the next turn
      </button>
      <button type="button" onClick={() => setOpen(false)} className="text-xs text-neutral-500">
        Cancel
      </button>
      {stop.isError && (
        <p role="alert" className="w-full text-xs text-red-600">
          {stop.error.message}
        </p>
      )}
    </form>
  );
}

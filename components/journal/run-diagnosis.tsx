"use client";
// Diagnosis: the failure signatures in a run's journal (with its task's thread), each linked to its events.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { EventLink } from "./json-block";
import type { Finding, RunDiagnosis as Diagnosis } from "./types";

const NAMES: Record<Finding["signature"], string> = {
  duplicate_work: "Duplicate work",
  unanswered_request: "Unanswered request",
  done_without_evidence: "Done without evidence",
  transient_error_absorbed: "Transient error absorbed",
};

export function RunDiagnosis({ runId }: { runId: string }) {
  const diagnosis = useQuery({
    queryKey: queryKeys.runDiagnosis(runId),
    queryFn: () => apiGet<Diagnosis>(`/api/journal/runs/${encodeURIComponent(runId)}/diagnose`),
  });
  if (diagnosis.isPending) return <div className="m-6 h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (diagnosis.isError)
    return (
      <p className="p-6 text-sm text-red-600">
        Could not diagnose run {runId}: {diagnosis.error.message}
      </p>
    );
  const { findings, events } = diagnosis.data;
  return (
    <div className="space-y-3 px-6 py-4" data-testid="diagnosis">
      <h2 className="text-base font-semibold">
        Diagnosis of <span className="font-mono">{runId}</span>
      </h2>
      {findings.length === 0 ? (
        <p className="text-sm text-green-700 dark:text-green-400">✓ Clean: no failure signature in {events} events (the run&apos;s and its task&apos;s).</p>
      ) : (
        <p className="text-sm">
          {findings.length} finding{findings.length === 1 ? "" : "s"} in {events} events:
        </p>
      )}
      <ul className="space-y-2">
        {findings.map((f) => (
          <li
            key={`${f.signature}:${f.eventIds.join(",")}`}
            className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-900 dark:bg-amber-950/40"
            data-testid="finding"
            data-signature={f.signature}
          >
            <p>
              <strong>{NAMES[f.signature]}</strong> — {f.summary}
            </p>
            <p className="mt-1 flex flex-wrap gap-2 text-xs text-neutral-600 dark:text-neutral-300">
              events:
              {f.eventIds.map((id) => (
                <EventLink key={id} id={id} />
              ))}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

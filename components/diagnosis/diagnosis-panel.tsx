"use client";
// The Diagnosis panel: the MAST failure modes in a flight's, a task's or a run's journal, each with its mode,
// category, severity, a sentence naming who and what, and its evidence linked to the journal's rows. A
// finding "waiting for you" links here (#finding-…): the panel scrolls to it and marks it.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { findingAnchor } from "./finding-anchor";
import type { DiagnosisView, Finding } from "./types";

export type DiagnosisTarget = { scope: "flight"; flightId: string } | { scope: "task"; taskId: string } | { scope: "run"; runId: string };

function request(target: DiagnosisTarget): { key: readonly unknown[]; path: string } {
  switch (target.scope) {
    case "flight":
      return { key: queryKeys.flightDiagnosis(target.flightId), path: `/api/diagnosis?flight=${encodeURIComponent(target.flightId)}` };
    case "task":
      return { key: queryKeys.taskDiagnosis(target.taskId), path: `/api/diagnosis?task=${encodeURIComponent(target.taskId)}` };
    case "run":
      return { key: queryKeys.runDiagnosis(target.runId), path: `/api/diagnosis?run=${encodeURIComponent(target.runId)}` };
  }
}

/** Severity in words and colour (never colour alone): high is red, medium amber, low grey. */
const SEVERITY: Record<Finding["severity"], { word: string; badge: string; card: string }> = {
  high: {
    word: "High",
    badge: "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-50",
    card: "border-red-300 bg-red-50/60 dark:border-red-900 dark:bg-red-950/30",
  },
  medium: {
    word: "Medium",
    badge: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-50",
    card: "border-amber-300 bg-amber-50/60 dark:border-amber-900 dark:bg-amber-950/30",
  },
  low: {
    word: "Low",
    badge: "bg-neutral-200 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-100",
    card: "border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-900",
  },
};

function FindingCard({ finding, marked }: { finding: Finding; marked: boolean }) {
  const severity = SEVERITY[finding.severity];
  return (
    <li
      id={findingAnchor(finding.key)}
      data-testid="finding"
      data-mode={finding.mode}
      data-severity={finding.severity}
      tabIndex={-1}
      className={`scroll-mt-16 rounded-lg border p-3 text-sm ${severity.card} ${marked ? "ring-2 ring-accent-600" : ""}`}
    >
      {/* The sentence first, in plain words; the MAST mode a small label, its name on hover. */}
      <p className="font-medium break-words first-letter:uppercase">{finding.sentence}.</p>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-xs">
        <span className={`rounded px-1.5 py-px text-[11px] font-semibold ${severity.badge}`}>{severity.word}</span>
        <abbr title={finding.name} className="font-mono no-underline">
          {finding.mode}
        </abbr>
        <span className="text-neutral-600 dark:text-neutral-300">
          {finding.category} · {finding.categoryName}
        </span>
      </p>
      <p className="mt-1 text-xs text-neutral-600 dark:text-neutral-300">
        Evidence in the journal:{" "}
        {finding.eventIds.map((id, i) => (
          <span key={id}>
            {i > 0 && ", "}
            <Link href={`/journal?at=${id}`} className="font-mono text-accent-700 hover:underline dark:text-accent-500" aria-label={`journal event ${id}`}>
              {id}
            </Link>
          </span>
        ))}
      </p>
    </li>
  );
}

/** The finding the address names (#finding-…), once it is on the page: scrolled to and marked. */
function useMarkedFinding(findings: Finding[] | undefined): string | null {
  const [marked, setMarked] = useState<string | null>(null);
  useEffect(() => {
    const wanted = window.location.hash.slice(1);
    const found = findings?.find((f) => findingAnchor(f.key) === wanted);
    if (!found) return;
    setMarked(found.key);
    const element = document.getElementById(wanted);
    element?.scrollIntoView({ block: "center" });
    element?.focus({ preventScroll: true });
  }, [findings]);
  return marked;
}

export function DiagnosisPanel({ target, className = "" }: { target: DiagnosisTarget; className?: string }) {
  const { key, path } = request(target);
  const diagnosis = useQuery({ queryKey: key, queryFn: () => apiGet<DiagnosisView>(path) });
  const marked = useMarkedFinding(diagnosis.data?.findings);
  if (diagnosis.isPending) return <div className={`h-16 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900 ${className}`} aria-busy />;
  // A failure is said once, by the page's banner with its Retry.
  if (diagnosis.isError) return null;
  const { findings, events, label } = diagnosis.data;
  const high = findings.filter((f) => f.severity === "high").length;
  return (
    <section aria-labelledby={`diagnosis-${target.scope}`} data-testid="diagnosis" className={`min-w-0 space-y-2 ${className}`}>
      <h2 id={`diagnosis-${target.scope}`} className="text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">
        Diagnosis
      </h2>
      {findings.length === 0 ? (
        <p className="text-sm text-green-800 dark:text-green-300" data-testid="diagnosis-clean">
          ✓ Clean: no failure mode in the {events} events of {label}.
        </p>
      ) : (
        <p className="text-sm" data-testid="diagnosis-summary">
          {findings.length} {findings.length === 1 ? "finding" : "findings"} in the {events} events of {label}
          {high > 0 ? `, ${high} of them high (past a gate)` : ""}. Modes and categories are MAST&apos;s (Cemri et al. 2025).
        </p>
      )}
      <ul className="space-y-2">
        {findings.map((f) => (
          <FindingCard key={f.key} finding={f} marked={marked === f.key} />
        ))}
      </ul>
    </section>
  );
}

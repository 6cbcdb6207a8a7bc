"use client";
// A card's mark for a failure the MAST monitor found on its flight that got past a gate (a high finding): the
// mode in a word, the sentence on hover. The finding itself is on the flight's goal page, in its Diagnosis panel.
import { useFlightOf } from "./use-flights";

export function FindingMark({ taskId }: { taskId: string }) {
  const found = useFlightOf(taskId);
  const alerts = (found?.flight.alerts ?? []).filter((a) => found?.isGoal || a.taskIds.includes(taskId));
  if (alerts.length === 0) return null;
  return (
    <span
      data-testid="card-finding"
      title={alerts.map((a) => `${a.mode} ${a.name}: ${a.sentence}`).join("\n")}
      className="rounded bg-red-100 px-1 font-semibold text-red-900 dark:bg-red-900/60 dark:text-red-50"
    >
      <span aria-hidden>⚠ </span>
      {alerts.map((a) => a.mode).join(", ")}
      <span className="sr-only"> found: {alerts.map((a) => a.name).join(", ")}</span>
    </span>
  );
}

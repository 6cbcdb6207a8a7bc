"use client";
// The Diagnosis panel where a task is shown: a flight's goal shows its whole flight's diagnosis, any other
// task its own journal's.
import { DiagnosisPanel } from "../diagnosis/diagnosis-panel";
import { useFlightOf } from "./use-flights";

export function TaskDiagnosis({ taskId, goalsOnly = false, className }: { taskId: string; goalsOnly?: boolean; className?: string }) {
  const found = useFlightOf(taskId);
  if (found?.isGoal) return <DiagnosisPanel key={found.flight.id} target={{ scope: "flight", flightId: found.flight.id }} className={className} />;
  if (goalsOnly) return null;
  return <DiagnosisPanel key={taskId} target={{ scope: "task", taskId }} className={className} />;
}

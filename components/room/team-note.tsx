"use client";
// A standing note in the Room while the built-in team runs without a model: it follows a script and will
// not answer what people write.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import type { TeamStatus } from "@/domain/flights/team-status";

export function ScriptedTeamNote() {
  const team = useQuery({ queryKey: queryKeys.team(), queryFn: () => apiGet<TeamStatus>("/api/team") });
  if (team.data?.mode !== "scripted") return null;
  return (
    <p
      role="note"
      data-testid="scripted-note"
      className="border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-950 md:px-6 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <strong className="font-semibold">Scripted team:</strong> agents follow a fixed script and won't answer chat — set <code className="font-mono">QUORUM_MODEL</code> to run them
      live.
    </p>
  );
}

"use client";
// The team model's state, from GET /api/team: ok, failing since …, or unreachable. Shown in the top
// strip (only when something is wrong) and on the Agents page (always, when the team runs live).
import { useQuery } from "@tanstack/react-query";
import type { TeamStatus } from "@/domain/flights/team-status";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../time";

export function useTeam() {
  return useQuery({
    queryKey: queryKeys.team(),
    queryFn: () => apiGet<TeamStatus>("/api/team"),
    // The stream refreshes it on a failure; while the model fails, a recovery shows within half a minute.
    refetchInterval: (query) => (query.state.data?.model && query.state.data.model.state !== "ok" && query.state.data.model.state !== "unknown" ? 30_000 : false),
  });
}

/** The model a team member thinks with, as its worker announced it (QUORUM_MODEL_<ROLE> may differ per role). */
export function MemberModel({ name }: { name: string }) {
  const model = useTeam().data?.members?.[name];
  if (!model) return <span className="text-xs text-neutral-600 dark:text-neutral-300">—</span>;
  return (
    <span className="font-mono text-xs" data-testid="member-model">
      {model}
    </span>
  );
}

/** The model's state in words; `always` shows an ok model too. */
export function ModelState({ always = false }: { always?: boolean }) {
  const model = useTeam().data?.model;
  if (!model) return null;
  const failing = model.state === "failing" || model.state === "unreachable";
  if (!failing && !always) return null;
  const tone = failing ? "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-50" : "text-neutral-700 dark:text-neutral-300";
  return (
    <span data-testid="model-state" data-state={model.state} className={`rounded px-1.5 py-0.5 whitespace-nowrap ${tone}`} title={model.lastError ?? undefined}>
      <span className="font-mono">{model.model}</span> {model.state === "ok" && "ok"}
      {model.state === "unknown" && "not called yet"}
      {failing && (
        <>
          {model.state === "unreachable" ? "unreachable" : "failing"} since {model.since && <RelativeTime iso={model.since} />}
          {model.failures > 1 && ` (${model.failures} failures)`}
        </>
      )}
    </span>
  );
}

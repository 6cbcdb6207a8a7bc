"use client";
// The built-in team's flights as the Board reads them, the flight a task belongs to, and how the team thinks.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TeamStatus } from "@/domain/flights/team-status";
import type { FlightList, FlightView } from "@/domain/flights/view";
import { type ApiError, apiGet, apiPost } from "../api";
import { queryKeys } from "../query-keys";

export type { FlightList, FlightView, TeamStatus };
export type { RepositoryInspection } from "@/domain/flights/inspect";

/** The newest flights (one shared cache: the strip, the cards' flight marks, the goal's page, the dialog's default). */
export function useFlights() {
  return useQuery({ queryKey: queryKeys.flights(), queryFn: () => apiGet<FlightList>("/api/flights") });
}

/** The flight a task is the goal of or a planned task of, and which it is; null when it is part of none. */
export function useFlightOf(taskId: string | null): { flight: FlightView; isGoal: boolean } | null {
  const flights = useFlights().data?.items ?? [];
  if (!taskId) return null;
  for (const flight of flights) {
    if (flight.goalTask.id === taskId) return { flight, isGoal: true };
    if (flight.tasks.some((t) => t.id === taskId)) return { flight, isGoal: false };
  }
  return null;
}

/** How the built-in team thinks: scripted, a model's name, or null before any worker started. */
export function useTeamStatus(enabled = true) {
  return useQuery({ queryKey: queryKeys.team(), queryFn: () => apiGet<TeamStatus>("/api/team"), enabled });
}

/** Ends a flight (POST /api/flights/:id/merge or /close); the flights and the board refresh at once. */
export function useEndFlight<Body>(flightId: string, how: "merge" | "close") {
  const queryClient = useQueryClient();
  return useMutation<FlightView, ApiError, Body>({
    mutationFn: (body) => apiPost<FlightView>(`/api/flights/${flightId}/${how}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tasks() }),
  });
}

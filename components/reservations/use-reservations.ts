"use client";
// Live reservations from /api/reservations; Reservation* events mark the ["reservations"] caches stale.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiPost } from "../api";
import { queryKeys } from "../query-keys";
import type { Page } from "../types";
import type { ForceReleaseResult, Reservation } from "./types";

/** `filter` is a query string without the `?`, e.g. `taskId=…`; empty means every live reservation. */
export function useReservations(filter = "") {
  return useQuery({
    queryKey: queryKeys.reservationList(filter),
    queryFn: () => apiGet<Page<Reservation>>(`/api/reservations${filter ? `?${filter}` : ""}`),
  });
}

export function useForceRelease() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => apiPost<ForceReleaseResult>(`/api/reservations/${id}/force-release`, { reason }),
    onSuccess: () => queries.invalidateQueries({ queryKey: queryKeys.reservations() }),
  });
}

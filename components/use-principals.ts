"use client";
// Everyone with presence (GET /api/agents), one query the frame's top strip, the pickers and the room's composer share.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "./api";
import { queryKeys } from "./query-keys";
import type { Page, RosterRow } from "./types";

export function usePrincipals(enabled = true) {
  return useQuery({
    queryKey: queryKeys.principals(),
    queryFn: () => apiGet<Page<RosterRow>>("/api/agents"),
    enabled,
  });
}

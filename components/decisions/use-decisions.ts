"use client";
// The decision board's queries; every key starts with "decisions", which the live stream invalidates.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import type { DecisionPage, DecisionStatus } from "./types";

/** One status (or every status), newest first, a page of 50 at a time. */
export function useDecisions(status: DecisionStatus | "all") {
  return useInfiniteQuery({
    queryKey: queryKeys.decisionList(status),
    queryFn: ({ pageParam }) => apiGet<DecisionPage>(`/api/decisions?limit=50${status === "all" ? "" : `&status=${status}`}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
}

/** The escalations waiting for a human: the badge, the top strip, the notifier and the inbox share this query. */
export function useEscalations(enabled = true) {
  return useQuery({
    queryKey: queryKeys.escalations(),
    queryFn: () => apiGet<DecisionPage>("/api/decisions?status=escalated&limit=200"),
    enabled,
  });
}

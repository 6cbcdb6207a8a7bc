"use client";
// The bill's queries; every key starts with "bill", which budget and run events make stale.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import type { BillSeries, BillView, FlightView, SeriesWindow } from "./types";

export function useBill() {
  return useQuery({ queryKey: queryKeys.billSummary(), queryFn: () => apiGet<BillView>("/api/bill") });
}

/** The flights, each with its budget and its tasks' shares: refreshed by every budget and run event. */
export function useBillFlights() {
  return useQuery({ queryKey: queryKeys.billFlights(), queryFn: () => apiGet<{ items: FlightView[] }>("/api/flights") });
}

export function useBillSeries(range: SeriesWindow) {
  return useQuery({ queryKey: queryKeys.billSeries(range), queryFn: () => apiGet<BillSeries>(`/api/bill/series?window=${range}`) });
}

/** The viewer's local midnight, so "today" means the viewer's day. */
export function localMidnight(now = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

export function useSpendToday() {
  const since = localMidnight();
  return useQuery({
    queryKey: queryKeys.billToday(since),
    queryFn: () => apiGet<BillSeries>(`/api/bill/series?window=15m&since=${encodeURIComponent(since)}`),
  });
}

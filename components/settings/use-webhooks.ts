"use client";
// The Settings page's webhooks: the list (live through /api/stream's Webhook* events) and its actions.
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiDelete, apiGet, apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import type { AddedWebhook, WebhookList } from "./types";

export function useWebhooks(enabled = true) {
  return useQuery({ queryKey: queryKeys.webhooks(), queryFn: () => apiGet<WebhookList>("/api/webhooks"), enabled });
}

export function useAddWebhook() {
  return useMutation<AddedWebhook, ApiError, { url: string; events: string[]; description?: string }>({ mutationFn: (body) => apiPost("/api/webhooks", body) });
}

export function useRemoveWebhook() {
  return useMutation<void, ApiError, string>({ mutationFn: (id) => apiDelete(`/api/webhooks/${encodeURIComponent(id)}`) });
}

export function useTestWebhook() {
  return useMutation<{ deliveryId: string }, ApiError, string>({ mutationFn: (id) => apiPost(`/api/webhooks/${encodeURIComponent(id)}/test`, {}) });
}

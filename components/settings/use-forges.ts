"use client";
// The Settings page's forges: the list (live through /api/stream's Forge* events) and its actions.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiDelete, apiGet, apiPatch, apiPost, apiPut, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import type { ForgeHost, WebhookSecret } from "./types";

export function useForges(enabled = true) {
  return useQuery<{ items: ForgeHost[] }, ApiError>({ queryKey: queryKeys.forges(), queryFn: () => apiGet("/api/forges"), enabled });
}

/** Each action refreshes the list at once for its own tab; the stream's event does it for every other. */
function useForgeMutation<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation<T, ApiError, V>({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.forges() }) });
}

export function useAddForge() {
  return useForgeMutation((body: { host: string; apiUrl?: string; token: string }) => apiPost<ForgeHost>("/api/forges", body));
}

export function useReplaceForgeToken() {
  return useForgeMutation(({ id, token }: { id: string; token: string }) => apiPut<ForgeHost>(`/api/forges/${encodeURIComponent(id)}/token`, { token }));
}

export function useRemoveForge() {
  return useForgeMutation((id: string) => apiDelete(`/api/forges/${encodeURIComponent(id)}`));
}

export function useChangeForgeSettings() {
  return useForgeMutation(({ id, ...settings }: { id: string; intakeLabel?: string | null; pollPullRequests?: boolean }) =>
    apiPatch<ForgeHost>(`/api/forges/${encodeURIComponent(id)}`, settings),
  );
}

export function useGenerateWebhookSecret() {
  return useForgeMutation((id: string) => apiPost<WebhookSecret>(`/api/forges/${encodeURIComponent(id)}/webhook-secret`, {}));
}

export function useRemoveWebhookSecret() {
  return useForgeMutation((id: string) => apiDelete<ForgeHost>(`/api/forges/${encodeURIComponent(id)}/webhook-secret`));
}

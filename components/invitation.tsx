"use client";
// An invitation's page: who invited you and as whom, and Join, which accepts it (a POST: opening the link alone,
// as a chat's preview does, spends nothing) and signs this browser in.
import { useMutation, useQuery } from "@tanstack/react-query";
import { type ApiError, apiPost } from "./api";
import { RelativeTime } from "./time";

interface Looked {
  name: string;
  invitedBy: string;
  expiresAt: string;
}

export function Invitation({ token }: { token: string }) {
  const look = useQuery<Looked, ApiError>({ queryKey: ["invitation", token], queryFn: () => apiPost<Looked>("/api/invitations/look", { token }), retry: false });
  const join = useMutation<{ name: string }, ApiError>({
    mutationFn: () => apiPost<{ name: string }>("/api/invitations/accept", { token }),
    onSuccess: () => window.location.assign("/room"),
  });
  return (
    <main className="mx-3 mt-24 max-w-md rounded-lg border border-neutral-200 p-6 sm:mx-auto dark:border-neutral-800" data-testid="invitation">
      <h1 className="text-lg font-semibold">Join Quorum</h1>
      {look.isPending && <div className="mt-3 h-10 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
      {look.isError && (
        <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          {look.error.message}
        </p>
      )}
      {look.data && (
        <>
          <p className="mt-2 text-sm text-neutral-700 dark:text-neutral-300">
            <strong className="font-semibold">{look.data.invitedBy}</strong> invited you to work with the team as <strong className="font-semibold">{look.data.name}</strong>. The
            invitation expires <RelativeTime iso={look.data.expiresAt} className="" />.
          </p>
          {join.error && (
            <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
              {join.error.message}
            </p>
          )}
          <button
            type="button"
            onClick={() => join.mutate()}
            disabled={join.isPending || join.isSuccess}
            className="mt-4 rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60"
          >
            {join.isPending || join.isSuccess ? "Joining…" : `Join as ${look.data.name}`}
          </button>
        </>
      )}
    </main>
  );
}

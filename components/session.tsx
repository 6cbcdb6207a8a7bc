"use client";
// Who is signed in, and signing out; pages render the sign-in help instead of themselves when nobody is.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { apiGet, apiPost, type ApiError } from "./api";
import { queryKeys } from "./query-keys";
import type { Me } from "./types";

export function useMe() {
  return useQuery<Me, ApiError>({
    queryKey: queryKeys.me(),
    queryFn: () => apiGet<Me>("/api/me"),
    retry: (count, error) => error.status !== 401 && count < 2,
    staleTime: 60_000,
  });
}

const REFUSED: Record<string, string> = {
  used: "That sign-in link was already used: each link signs in once.",
  expired: "That sign-in link has expired: links last 15 minutes.",
  unknown: "That sign-in link is not one Quorum issued (check it was copied whole).",
};

/** After a refused link (/signin sends /welcome?link=used|expired|unknown): which it was. */
function RefusedLinkNote() {
  const reason = useSearchParams().get("link");
  const text = reason ? REFUSED[reason] : undefined;
  if (!text) return null;
  return (
    <p role="alert" data-testid="refused-link" className="mt-3 rounded bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
      {text}
    </p>
  );
}

export function SignedOut() {
  return (
    <div className="mx-3 mt-24 max-w-md rounded-lg border border-neutral-200 p-6 sm:mx-auto dark:border-neutral-800">
      <h1 className="text-lg font-semibold">Sign in to Quorum</h1>
      <Suspense>
        <RefusedLinkNote />
      </Suspense>
      <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-300">
        Open the one-time sign-in link that <code className="font-mono">npm start</code> printed in its terminal. Links work once and expire after 15 minutes; for a new one run:
      </p>
      <pre className="mt-3 rounded bg-neutral-100 p-3 font-mono text-sm whitespace-pre-wrap dark:bg-neutral-900">npm run quorum -- human add YOUR_NAME</pre>
    </div>
  );
}

/** Ends this browser's session on the server, then reloads into the sign-in page (dropping every cache and the stream). */
export function SignOutButton() {
  const signOut = useMutation<unknown, ApiError>({
    mutationFn: () => apiPost("/api/session/sign-out", {}),
    onSuccess: () => window.location.assign("/welcome"),
  });
  return (
    <>
      <button
        type="button"
        disabled={signOut.isPending || signOut.isSuccess}
        onClick={() => signOut.mutate()}
        className="shrink-0 text-xs text-neutral-500 hover:text-neutral-900 hover:underline disabled:opacity-50 dark:text-neutral-400 dark:hover:text-neutral-100"
      >
        Sign out
      </button>
      {signOut.isError && (
        <p role="alert" className="basis-full text-xs text-red-600">
          {signOut.error.message}
        </p>
      )}
    </>
  );
}

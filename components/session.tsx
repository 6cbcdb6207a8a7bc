"use client";
// Who is signed in; pages render the sign-in help instead of themselves when nobody is.
import { useQuery } from "@tanstack/react-query";
import { apiGet, type ApiError } from "./api";
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

export function SignedOut() {
  return (
    <div className="mx-auto mt-24 max-w-md rounded-lg border border-neutral-200 p-6 dark:border-neutral-800">
      <h1 className="text-lg font-semibold">Sign in to Quorum</h1>
      <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-300">
        Open the one-time sign-in link that <code className="font-mono">npm start</code> printed in its terminal. Links work once and expire after 15 minutes; for a new one run:
      </p>
      <pre className="mt-3 rounded bg-neutral-100 p-3 font-mono text-sm dark:bg-neutral-900">npm run quorum -- human add YOUR_NAME</pre>
    </div>
  );
}

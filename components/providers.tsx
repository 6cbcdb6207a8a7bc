"use client";
// The client root: one query client, the live event stream once someone is signed in.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { retryable } from "./api";
import { LiveEvents } from "./live";
import { useMe } from "./session";

function Live({ children }: { children: ReactNode }) {
  const me = useMe();
  return <LiveEvents enabled={me.isSuccess}>{children}</LiveEvents>;
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 5_000, retry: retryable } } }));
  return (
    <QueryClientProvider client={client}>
      <Live>{children}</Live>
    </QueryClientProvider>
  );
}

"use client";
// A goal handed back after its model failed: the reason, and the human's three answers — retry live, run
// it scripted, or cancel it (with an ADR, in the Board's drawer).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { apiPost } from "../api";
import { queryKeys } from "../query-keys";
import { toast } from "../toast";
import type { WaitingItem } from "./types";

type Handback = Extract<WaitingItem, { kind: "handback" }>;

export function HandbackActions({ item, onDone }: { item: Handback; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: (mode: "live" | "scripted") => apiPost(`/api/flights/${item.flightId}/retry`, { mode }),
    onSuccess: (_flight, mode) => {
      toast(mode === "scripted" ? `Goal #${item.number} runs again, scripted.` : `Goal #${item.number} runs again on the model.`);
      void queryClient.invalidateQueries({ queryKey: queryKeys.waiting() });
      onDone?.();
    },
  });
  const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs font-medium hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-600 dark:hover:bg-neutral-800";
  return (
    <div data-testid="handback-actions" className="mt-1 flex flex-wrap items-center gap-2">
      <button type="button" className={button} disabled={retry.isPending} onClick={() => retry.mutate("live")}>
        Retry
      </button>
      <button type="button" className={button} disabled={retry.isPending} onClick={() => retry.mutate("scripted")}>
        Run scripted
      </button>
      <Link href={`/board?task=${item.taskId}`} onClick={onDone} className={button}>
        Cancel…
      </Link>
      {retry.isError && (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {retry.error.message}
        </span>
      )}
    </div>
  );
}

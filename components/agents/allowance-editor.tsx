"use client";
// A human changes a budget's allowance in place: a top-up lets a halted run resume (`quorum run resume RUN`).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";
import type { BudgetView } from "../bill/types";
import { queryKeys } from "../query-keys";
import { TokensForm } from "./tokens-form";

export function AllowanceEditor({ budget }: { budget: BudgetView }) {
  const [open, setOpen] = useState(false);
  const queries = useQueryClient();
  const save = useMutation<unknown, ApiError, number>({
    mutationFn: (allowance) => apiPost(`/api/budgets/${budget.budgetId}/allowance`, { allowance }),
    onSuccess: () => {
      setOpen(false);
      // The BudgetAllowanceChanged event refreshes these live as well; this spares the wait.
      void queries.invalidateQueries({ queryKey: queryKeys.bill() });
      void queries.invalidateQueries({ queryKey: queryKeys.agents() });
    },
  });
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-50 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        Change allowance
      </button>
    );
  }
  return (
    <TokensForm
      label="Tokens"
      initial={budget.allowance ?? 0}
      step={1000}
      saving={save.isPending}
      error={save.isError ? save.error.message : null}
      onSave={(allowance) => save.mutate(allowance)}
      onCancel={() => setOpen(false)}
    />
  );
}

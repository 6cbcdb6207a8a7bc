"use client";
// A human changes a budget's allowance in place: a top-up lets a halted run resume (`quorum run resume RUN`).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";
import type { BudgetView } from "../bill/types";
import { queryKeys } from "../query-keys";

export function AllowanceEditor({ budget }: { budget: BudgetView }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(String(budget.allowance ?? 0));
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
        onClick={() => {
          setValue(String(budget.allowance ?? 0));
          setOpen(true);
        }}
        className="rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-50 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        Change allowance
      </button>
    );
  }
  const allowance = Number(value);
  const valid = value.trim() !== "" && Number.isInteger(allowance) && allowance >= 0;
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) save.mutate(allowance);
      }}
    >
      <label className="flex items-center gap-1 text-xs">
        <span>Tokens</span>
        <input
          type="number"
          min={0}
          step={1000}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="w-32 rounded border border-neutral-300 px-2 py-0.5 text-xs tabular-nums dark:border-neutral-700 dark:bg-neutral-900"
        />
      </label>
      <button type="submit" disabled={!valid || save.isPending} className="rounded bg-accent-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50">
        Save
      </button>
      <button type="button" onClick={() => setOpen(false)} className="text-xs text-neutral-500">
        Cancel
      </button>
      {save.isError && (
        <p role="alert" className="w-full text-xs text-red-600">
          {save.error.message}
        </p>
      )}
    </form>
  );
}

"use client";
// A human tops up a flight's or a task's budget by some tokens: the allowance rises (journalled), a halted
// run on it may then be resumed. A task's top-up comes out of what its flight has not promised: when the
// flight has none left, the refusal says so and the flight is topped up first.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import { toast } from "../toast";
import { formatTokens } from "./format";
import type { BudgetLine } from "./types";

/** What the form offers to add: a quarter of the allowance, in whole thousands, at least a thousand. */
function suggestedTopUp(allowance: number): number {
  return Math.max(1000, Math.round(allowance / 4 / 1000) * 1000);
}

/** The refusal in words: a share the flight cannot grow names what the flight has left to give. */
function refusal(error: ApiError, allowance: number, parent: string | undefined): string {
  // `available` is the most the share may hold in all; what may still be added is that less what it holds.
  if (error.body.error === "over_allocated" && parent && typeof error.body.available === "number") {
    const left = Math.max(0, error.body.available - allowance);
    return `${parent} has ${formatTokens(left)} tokens left to give: add at most that, or top up ${parent} first.`;
  }
  return error.message;
}

/** `parent`: what a task's share comes out of, in words ("flight 3"), for the refusal. */
export function TopUp({ budget, what, parent }: { budget: Pick<BudgetLine, "id" | "allowance">; what: string; parent?: string }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const inputId = useId();
  const queries = useQueryClient();
  const save = useMutation<unknown, ApiError, number>({
    mutationFn: (add) => apiPost(`/api/budgets/${budget.id}/allowance`, { allowance: budget.allowance + add }),
    onSuccess: (_, add) => {
      setOpen(false);
      toast(`Topped up ${what} by ${formatTokens(add)} tokens.`);
      // The BudgetAllowanceChanged event refreshes the bill live as well; this spares the wait.
      void queries.invalidateQueries({ queryKey: queryKeys.bill() });
    },
  });
  if (!open) {
    return (
      <button
        type="button"
        aria-label={`Top up ${what}`}
        onClick={() => {
          setValue(String(suggestedTopUp(budget.allowance)));
          save.reset();
          setOpen(true);
        }}
        className="rounded border border-neutral-300 px-2 py-0.5 text-xs whitespace-nowrap hover:bg-neutral-50 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        Top up
      </button>
    );
  }
  const add = Number(value);
  const valid = value.trim() !== "" && Number.isInteger(add) && add > 0;
  return (
    <form
      className="flex flex-wrap items-center justify-end gap-2"
      aria-label={`Top up ${what}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) save.mutate(add);
      }}
    >
      <label htmlFor={inputId} className="text-xs">
        Add tokens
      </label>
      <input
        id={inputId}
        type="number"
        min={1}
        step={1}
        value={value}
        // biome-ignore lint/a11y/noAutofocus: the form opens on the human's click, to type the amount at once.
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        className="w-24 rounded border border-neutral-300 px-2 py-0.5 text-xs tabular-nums dark:border-neutral-700 dark:bg-neutral-900"
      />
      <button type="submit" disabled={!valid || save.isPending} className="rounded bg-accent-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50">
        Add
      </button>
      <button type="button" onClick={() => setOpen(false)} className="text-xs text-neutral-600 dark:text-neutral-300">
        Cancel
      </button>
      {save.isError && (
        <p role="alert" className="w-full text-right text-xs text-red-600">
          {refusal(save.error, budget.allowance, parent)}
        </p>
      )}
    </form>
  );
}

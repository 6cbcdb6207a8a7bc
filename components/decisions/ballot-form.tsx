"use client";
// A human casts a ballot: one option and the reasoning behind it.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";
import type { Decision } from "./types";

export function BallotForm({ decision }: { decision: Decision }) {
  const [option, setOption] = useState("");
  const [reasoning, setReasoning] = useState("");
  const cast = useMutation<unknown, ApiError>({
    mutationFn: () => apiPost(`/api/decisions/${decision.id}/ballots`, { option, reasoning }),
    onSuccess: () => setReasoning(""),
  });
  return (
    <form
      className="mt-3 space-y-2 border-t border-neutral-100 pt-3 dark:border-neutral-800"
      aria-label={`Cast a ballot on D-${decision.number}`}
      onSubmit={(e) => {
        e.preventDefault();
        cast.mutate();
      }}
    >
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <legend className="sr-only">Your option</legend>
        {decision.options.map((o) => (
          <label key={o} className="flex items-center gap-1.5">
            <input type="radio" name={`option-${decision.id}`} value={o} checked={option === o} onChange={() => setOption(o)} />
            {o}
          </label>
        ))}
      </fieldset>
      <label className="block text-xs text-neutral-600 dark:text-neutral-300">
        Your reasoning
        <textarea
          value={reasoning}
          onChange={(e) => setReasoning(e.target.value)}
          rows={2}
          className="mt-1 block w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
        />
      </label>
      <div className="flex items-center gap-3">
        <button
          type="submit"
          disabled={!option || !reasoning.trim() || cast.isPending}
          className="rounded-md bg-accent-600 px-3 py-1 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50"
        >
          Cast ballot
        </button>
        {cast.isError && <p className="text-xs text-red-600">{cast.error.message}</p>}
      </div>
    </form>
  );
}

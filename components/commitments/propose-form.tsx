"use client";
// "I'll take it": propose a commitment (a candidate until you confirm it).
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";

export function ProposeForm() {
  const [what, setWhat] = useState("");
  const [due, setDue] = useState("");
  const propose = useMutation<unknown, ApiError>({
    mutationFn: () => apiPost("/api/commitments", { what, ...(due ? { dueAt: new Date(due).toISOString() } : {}) }),
    onSuccess: () => {
      setWhat("");
      setDue("");
    },
  });
  return (
    <form
      aria-label="Take something on"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        propose.mutate();
      }}
    >
      <label className="text-xs">
        I&apos;ll take it
        <input
          value={what}
          onChange={(e) => setWhat(e.target.value)}
          placeholder="what you will do"
          className="mt-1 block w-72 rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
        />
      </label>
      <label className="text-xs">
        Due
        <input
          type="datetime-local"
          value={due}
          onChange={(e) => setDue(e.target.value)}
          className="mt-1 block rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
        />
      </label>
      <button
        type="submit"
        disabled={!what.trim() || propose.isPending}
        className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50"
      >
        Propose
      </button>
      {propose.isError && (
        <p className="text-xs text-red-600" role="alert">
          {propose.error.message}
        </p>
      )}
    </form>
  );
}

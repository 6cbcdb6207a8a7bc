"use client";
// Whether this agent may start flights of its own, and with how many tokens in all: off until a human allows it
// (DESIGN §13). Humans change it here; everyone sees it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";
import { formatTokens } from "../bill/format";
import { queryKeys } from "../query-keys";
import { TokensForm } from "./tokens-form";
import type { AgentDetail } from "./types";

type Allowance = AgentDetail["flightAllowance"];

export function FlightStarts({ agentId, allowance, mayChange }: { agentId: string; allowance: Allowance; mayChange: boolean }) {
  const [editing, setEditing] = useState(false);
  const queries = useQueryClient();
  const save = useMutation<Allowance, ApiError, number>({
    mutationFn: (tokens) => apiPost(`/api/agents/${agentId}/flight-allowance`, { tokens }),
    onSuccess: () => {
      setEditing(false);
      void queries.invalidateQueries({ queryKey: queryKeys.agent(agentId) });
    },
  });
  return (
    <section className="space-y-2" aria-label="Flights it may start">
      <h2 className="text-sm font-semibold">Flights it may start</h2>
      <p className="text-sm" data-testid="flight-allowance">
        {allowance.tokens === 0
          ? "None: it may not start flights on its own (a human's flights only)."
          : `Flights of up to ${formatTokens(allowance.tokens)} tokens in all: ${formatTokens(allowance.committed)} taken by the flights it started, ${formatTokens(allowance.left)} left.`}
      </p>
      {mayChange && !editing && (
        <button
          type="button"
          onClick={() => setEditing(true)}
          className="rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-50 dark:border-neutral-700 dark:hover:bg-neutral-800"
        >
          {allowance.tokens === 0 ? "Allow flights" : "Change"}
        </button>
      )}
      {mayChange && editing && (
        <TokensForm
          label="Tokens in all (0: none)"
          initial={allowance.tokens}
          step={10000}
          saving={save.isPending}
          error={save.isError ? save.error.message : null}
          onSave={(tokens) => save.mutate(tokens)}
          onCancel={() => setEditing(false)}
        />
      )}
    </section>
  );
}

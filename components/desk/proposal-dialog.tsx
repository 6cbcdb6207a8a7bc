"use client";
// An issue a forge labelled for the team, as the human decides it: the goal prefilled from the issue's title and
// body, theirs to edit, then Start flight (on the issue's repository, as New flight would) or Dismiss.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { type ApiError, apiPost } from "../api";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "../board/dialog";
import { queryKeys } from "../query-keys";
import { toast } from "../toast";
import type { WaitingItem } from "./types";

type Proposal = Extract<WaitingItem, { kind: "proposal" }>;

/** What a goal must be, as the server checks it. */
function goalProblem(goal: string): string | null {
  if (!goal.trim()) return "A flight needs a goal.";
  if (goal.trim().length > 4000) return "At most 4000 characters.";
  return null;
}

export function ProposalDialog({ proposal, onClose }: { proposal: Proposal | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [goal, setGoal] = useState("");
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    setGoal(proposal?.goal ?? "");
    setTouched(false);
  }, [proposal]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.waiting() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.flights() });
  };
  const start = useMutation<{ number: number; branch: string }, ApiError, string>({
    mutationFn: (text) => apiPost(`/api/flight-proposals/${proposal!.proposalId}/start`, { goal: text }),
    onSuccess: (flight) => {
      toast(`Flight ${flight.number} started from issue #${proposal!.issueNumber}: the orchestrator plans it, and the work lands on ${flight.branch}.`);
      refresh();
      close();
      router.push("/board");
    },
  });
  const dismiss = useMutation<unknown, ApiError, void>({
    mutationFn: () => apiPost(`/api/flight-proposals/${proposal!.proposalId}/dismiss`, {}),
    onSuccess: () => {
      toast(`Dismissed issue #${proposal!.issueNumber}: it will not be proposed again.`);
      refresh();
      close();
    },
  });

  function close() {
    start.reset();
    dismiss.reset();
    onClose();
  }

  const problem = touched ? goalProblem(goal) : null;
  const busy = start.isPending || dismiss.isPending;
  const secondary = "rounded-md border border-neutral-300 px-3 py-1.5 text-sm hover:bg-neutral-100 disabled:opacity-60 dark:border-neutral-700 dark:hover:bg-neutral-800";
  return (
    <Modal title={proposal ? `Issue #${proposal.issueNumber} on ${proposal.repository}` : "Proposed flight"} open={proposal !== null} onClose={close}>
      {proposal && (
        <form
          onSubmit={onValidSubmit(
            () => {
              setTouched(true);
              return goalProblem(goal) === null;
            },
            () => start.mutate(goal.trim()),
          )}
          noValidate
          data-testid="proposal-dialog"
        >
          <p className="mb-3 text-sm text-neutral-700 dark:text-neutral-300">
            This issue carries the label you chose for the team. Starting it flies a flight on <span className="font-mono break-all">{proposal.repository}</span> ; its pull request
            closes the issue when merged.{" "}
            <a href={proposal.issueUrl} target="_blank" rel="noreferrer" className="underline">
              See the issue on the forge
            </a>
            .
          </p>
          <Field label="Goal" hint="Taken from the issue's title and text: say it the way the team should take it." error={problem}>
            {(control) => (
              <textarea
                {...control}
                value={goal}
                onChange={(e) => {
                  setGoal(e.target.value);
                  setTouched(true);
                }}
                rows={8}
                className={inputClass}
                name="goal"
                maxLength={4000}
              />
            )}
          </Field>
          <ServerError error={start.error ?? dismiss.error} />
          <div className="flex flex-wrap items-end justify-between gap-2">
            <button type="button" className={`${secondary} mt-4`} disabled={busy} onClick={() => dismiss.mutate()}>
              {dismiss.isPending ? "Dismissing…" : "Dismiss"}
            </button>
            <FormButtons busy={start.isPending} disabled={busy} label="Start flight" onCancel={close} dismiss="Not now" />
          </div>
        </form>
      )}
    </Modal>
  );
}

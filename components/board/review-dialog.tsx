"use client";
// The approver's verdict: accept, or reject with a reason the owner can act on.
import { useState } from "react";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import { toast } from "../toast";
import type { Task } from "./types";
import { useTaskAction } from "./use-board";

type Verdict = "accept" | "reject";

export function ReviewDialog({ task, open, onClose }: { task: Task; open: boolean; onClose: () => void }) {
  const [verdict, setVerdict] = useState<Verdict>("accept");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const review = useTaskAction<{ verdict: Verdict; reason?: string }>(() => `/api/tasks/${task.id}/review`);
  const close = () => {
    review.reset();
    setProblem(null);
    onClose();
  };
  const validate = () => {
    const missing = verdict === "reject" && !reason.trim();
    setProblem(missing ? "Say what has to change: the owner reworks from your reason." : null);
    return !missing;
  };
  const submit = () =>
    review.mutate(
      { verdict, ...(reason.trim() && { reason: reason.trim() }) },
      {
        onSuccess: () => {
          toast(verdict === "accept" ? `Accepted #${task.number}: it is done.` : `Sent #${task.number} back to ${task.ownerName ?? "its owner"}.`);
          close();
        },
      },
    );
  return (
    <Modal title={`Review #${task.number}`} open={open} onClose={close}>
      <form onSubmit={onValidSubmit(validate, submit)} noValidate>
        <fieldset className="mb-3 flex gap-4 text-sm">
          <legend className="mb-1 font-medium">Verdict</legend>
          {(["accept", "reject"] as const).map((v) => (
            <label key={v} className="flex items-center gap-1.5">
              <input type="radio" name="verdict" value={v} checked={verdict === v} onChange={() => setVerdict(v)} />
              {v === "accept" ? "Accept → done" : "Reject → back to the owner"}
            </label>
          ))}
        </fieldset>
        <Field label={verdict === "reject" ? "Reason (required)" : "Note (optional)"} error={problem}>
          {(control) => <textarea {...control} value={reason} onChange={(e) => setReason(e.target.value)} rows={4} className={inputClass} name="reason" />}
        </Field>
        <ServerError error={review.error} />
        <FormButtons busy={review.isPending} label={verdict === "accept" ? "Accept" : "Reject"} onCancel={close} tone={verdict === "reject" ? "danger" : "accent"} />
      </form>
    </Modal>
  );
}

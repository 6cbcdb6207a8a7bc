"use client";
// Reopen a done task: only with new evidence (a failing test, a bug report, a diff).
import { useState } from "react";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import type { Task } from "./types";
import { useTaskAction } from "./use-board";

export function ReopenDialog({ task, open, onClose }: { task: Task; open: boolean; onClose: () => void }) {
  const [evidence, setEvidence] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const reopen = useTaskAction<{ evidence: string }>(() => `/api/tasks/${task.id}/reopen`);
  const close = () => {
    reopen.reset();
    setProblem(null);
    onClose();
  };
  const validate = () => {
    setProblem(evidence.trim() ? null : "Reopening needs new evidence.");
    return Boolean(evidence.trim());
  };
  return (
    <Modal title={`Reopen #${task.number}`} open={open} onClose={close}>
      <form onSubmit={onValidSubmit(validate, () => reopen.mutate({ evidence: evidence.trim() }, { onSuccess: close }))} noValidate>
        <Field label="New evidence" hint="What is new since it was accepted. It goes back to ready." error={problem}>
          {(control) => (
            <textarea {...control} value={evidence} onChange={(e) => setEvidence(e.target.value)} rows={8} className={`${inputClass} font-mono text-xs`} name="evidence" />
          )}
        </Field>
        <ServerError error={reopen.error} />
        <FormButtons busy={reopen.isPending} label="Reopen" onCancel={close} />
      </form>
    </Modal>
  );
}

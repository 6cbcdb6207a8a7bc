"use client";
// Cancel a task with an ADR (title, context, decision, consequences): no quiet burials.
import { useState } from "react";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import type { Task } from "./types";
import { useTaskAction } from "./use-board";

const FIELDS = [
  { key: "title", label: "ADR title", rows: 1, hint: "The decision in a line." },
  { key: "context", label: "Context", rows: 3, hint: "What made this task unnecessary or wrong?" },
  { key: "decision", label: "Decision", rows: 2, hint: "What we do instead." },
  { key: "consequences", label: "Consequences", rows: 2, hint: "What follows, good and bad." },
] as const;

type Adr = Record<(typeof FIELDS)[number]["key"], string>;
const EMPTY: Adr = { title: "", context: "", decision: "", consequences: "" };

export function CancelDialog({ task, open, onClose }: { task: Task; open: boolean; onClose: () => void }) {
  const [adr, setAdr] = useState<Adr>(EMPTY);
  const [problems, setProblems] = useState<Partial<Adr>>({});
  const cancel = useTaskAction<{ adr: Adr }>(() => `/api/tasks/${task.id}/cancel`);
  const close = () => {
    cancel.reset();
    setProblems({});
    onClose();
  };
  const validate = () => {
    const found: Partial<Adr> = {};
    for (const { key, label } of FIELDS) if (!adr[key].trim()) found[key] = `${label} is required.`;
    setProblems(found);
    return Object.keys(found).length === 0;
  };
  const submit = () =>
    cancel.mutate(
      { adr: { title: adr.title.trim(), context: adr.context.trim(), decision: adr.decision.trim(), consequences: adr.consequences.trim() } },
      {
        onSuccess: () => {
          setAdr(EMPTY);
          close();
        },
      },
    );
  return (
    <Modal title={`Cancel #${task.number} with an ADR`} open={open} onClose={close}>
      <form onSubmit={onValidSubmit(validate, submit)} noValidate>
        {FIELDS.map(({ key, label, rows, hint }) => (
          <Field key={key} label={label} hint={hint} error={problems[key]}>
            {(control) =>
              rows === 1 ? (
                <input {...control} value={adr[key]} onChange={(e) => setAdr({ ...adr, [key]: e.target.value })} className={inputClass} name={`adr.${key}`} />
              ) : (
                <textarea {...control} value={adr[key]} onChange={(e) => setAdr({ ...adr, [key]: e.target.value })} rows={rows} className={inputClass} name={`adr.${key}`} />
              )
            }
          </Field>
        ))}
        <ServerError error={cancel.error} />
        <FormButtons busy={cancel.isPending} label="Cancel task" onCancel={close} tone="danger" />
      </form>
    </Modal>
  );
}

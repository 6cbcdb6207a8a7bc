"use client";
// Fix a ready task before anyone takes it: its title, description and acceptance criteria (PATCH /api/tasks/:id).
import { useState } from "react";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import type { Task } from "./types";
import { useTaskAction } from "./use-board";

interface Input {
  title: string;
  description: string;
  acceptanceCriteria: string;
}

export function EditTaskDialog({ task, open, onClose }: { task: Task; open: boolean; onClose: () => void }) {
  const [title, setTitle] = useState(task.title);
  const [description, setDescription] = useState(task.description);
  const [criteria, setCriteria] = useState(task.acceptanceCriteria ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useTaskAction<Input>(
    () => `/api/tasks/${task.id}`,
    (input) => input,
    "PATCH",
  );
  const close = () => {
    save.reset();
    setProblem(null);
    onClose();
  };
  const validate = () => {
    const why = !title.trim() ? "A task needs a title." : title.trim().length > 200 ? "At most 200 characters." : null;
    setProblem(why);
    return why === null;
  };
  return (
    <Modal title={`Edit #${task.number}`} open={open} onClose={close}>
      <form
        onSubmit={onValidSubmit(validate, () => save.mutate({ title: title.trim(), description: description.trim(), acceptanceCriteria: criteria.trim() }, { onSuccess: close }))}
        noValidate
      >
        <Field label="Title" error={problem}>
          {(control) => <input {...control} value={title} onChange={(e) => setTitle(e.target.value)} className={inputClass} name="title" maxLength={200} />}
        </Field>
        <Field label="Description">
          {(control) => <textarea {...control} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} className={inputClass} name="description" />}
        </Field>
        <Field label="Acceptance criteria" hint="Required before anyone can start: what does done mean?">
          {(control) => <textarea {...control} value={criteria} onChange={(e) => setCriteria(e.target.value)} rows={3} className={inputClass} name="acceptanceCriteria" />}
        </Field>
        <ServerError error={save.error} />
        <FormButtons busy={save.isPending} label="Save" onCancel={close} />
      </form>
    </Modal>
  );
}

"use client";
// File a new task: title, description, acceptance criteria, approver, lease length.
import { useState } from "react";
import { usePrincipals } from "../use-principals";
import type { Me } from "../types";
import { useFocusWhen } from "../use-focus-when";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import type { Task } from "./types";
import { useTaskAction } from "./use-board";

interface Input {
  title: string;
  description?: string;
  acceptanceCriteria?: string;
  approverId: string;
  leaseMinutes?: number;
}

export function CreateTaskDialog({ me, open, onClose, onCreated }: { me: Me; open: boolean; onClose: () => void; onCreated: (task: Task) => void }) {
  const people = (usePrincipals(open).data?.items ?? []).filter((p) => p.kind !== "system");
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [criteria, setCriteria] = useState("");
  const [approverId, setApproverId] = useState(me.id);
  const [lease, setLease] = useState("");
  const [problems, setProblems] = useState<Record<string, string>>({});
  const create = useTaskAction<Input>(() => "/api/tasks");
  // Runs after the Modal's own effect has shown the dialog, so the title can take the focus.
  const titleField = useFocusWhen<HTMLInputElement>(open);

  function close() {
    create.reset();
    setProblems({});
    onClose();
  }

  function validate(): boolean {
    const found: Record<string, string> = {};
    if (!title.trim()) found.title = "A task needs a title.";
    if (title.trim().length > 200) found.title = "At most 200 characters.";
    if (lease && !(Number.isInteger(Number(lease)) && Number(lease) >= 1 && Number(lease) <= 1440)) found.lease = "Whole minutes, 1 to 1440.";
    setProblems(found);
    return Object.keys(found).length === 0;
  }

  const submit = () =>
    create.mutate(
      {
        title: title.trim(),
        ...(description.trim() && { description: description.trim() }),
        ...(criteria.trim() && { acceptanceCriteria: criteria.trim() }),
        approverId,
        ...(lease && { leaseMinutes: Number(lease) }),
      },
      {
        onSuccess: (task) => {
          setTitle("");
          setDescription("");
          setCriteria("");
          setLease("");
          close();
          onCreated(task);
        },
      },
    );

  return (
    <Modal title="New task" open={open} onClose={close}>
      <form onSubmit={onValidSubmit(validate, submit)} noValidate>
        <Field label="Title" error={problems.title}>
          {(control) => <input {...control} ref={titleField} value={title} onChange={(e) => setTitle(e.target.value)} className={inputClass} name="title" maxLength={200} />}
        </Field>
        <Field label="Description">
          {(control) => <textarea {...control} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} className={inputClass} name="description" />}
        </Field>
        <Field label="Acceptance criteria" hint="Required before anyone can start: what does done mean?">
          {(control) => <textarea {...control} value={criteria} onChange={(e) => setCriteria(e.target.value)} rows={3} className={inputClass} name="acceptanceCriteria" />}
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Approver" hint="Reviews the work; never its owner.">
            {(control) => (
              <select {...control} value={approverId} onChange={(e) => setApproverId(e.target.value)} className={inputClass} name="approverId">
                <option value={me.id}>{me.name} (me)</option>
                {people
                  .filter((p) => p.id !== me.id)
                  .map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({p.kind === "agent" ? (p.role ?? "agent") : "human"})
                    </option>
                  ))}
              </select>
            )}
          </Field>
          <Field label="Lease (minutes)" hint="Empty: the default (30)." error={problems.lease}>
            {(control) => (
              <input {...control} value={lease} onChange={(e) => setLease(e.target.value)} inputMode="numeric" className={inputClass} name="leaseMinutes" placeholder="30" />
            )}
          </Field>
        </div>
        <p className="mt-3 text-xs text-neutral-600 dark:text-neutral-300" data-testid="who-picks-up">
          Who picks it up: an outside agent (over REST or MCP, with claim-next). The built-in team works on flights only — for it, close this and start a{" "}
          <strong>New flight</strong> with this as its goal.
        </p>
        <ServerError error={create.error} />
        <FormButtons busy={create.isPending} label="Create task" onCancel={close} />
      </form>
    </Modal>
  );
}

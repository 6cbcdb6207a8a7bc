"use client";
// A task's tests: the targets it must make pass, and what the run behind its latest submission says of them
// against the flight's baseline (fixed, still failing, not seen, newly broken), with the gate's refusal when an
// ACCEPT would be refused. A human corrects the targets while the task is open (PATCH /api/tasks/:id).
import { useState } from "react";
import type { Me } from "../types";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import type { TaskDetail } from "./types";
import { useTaskAction } from "./use-board";

type Tone = "good" | "bad" | "warn";

const TONE: Record<Tone, string> = {
  good: "text-green-800 dark:text-green-300",
  bad: "text-red-800 dark:text-red-300",
  warn: "text-amber-800 dark:text-amber-300",
};

function Group({ label, names, tone, testId }: { label: string; names: string[]; tone: Tone; testId: string }) {
  if (names.length === 0) return null;
  return (
    <div data-testid={testId}>
      <p className={`text-xs font-semibold ${TONE[tone]}`}>
        {label} ({names.length})
      </p>
      <ul className="ml-4 list-disc font-mono text-xs break-words">
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </div>
  );
}

function TargetsDialog({ detail, open, onClose }: { detail: TaskDetail; open: boolean; onClose: () => void }) {
  const { task } = detail;
  const [text, setText] = useState(task.targetTests.join("\n"));
  const save = useTaskAction<{ targetTests: string[] }>(
    () => `/api/tasks/${task.id}`,
    (input) => input,
    "PATCH",
  );
  const close = () => {
    save.reset();
    onClose();
  };
  const names = () =>
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  return (
    <Modal title={`Target tests of #${task.number}`} open={open} onClose={close}>
      <form
        onSubmit={onValidSubmit(
          () => true,
          () => save.mutate({ targetTests: names() }, { onSuccess: close }),
        )}
        noValidate
      >
        <Field label="One test per line" hint="By its whole name or its end, as the test run names it (slug > dashes spaces, test_slug.py::test_dashes). Empty: none.">
          {(control) => <textarea {...control} value={text} onChange={(e) => setText(e.target.value)} rows={5} className={`${inputClass} font-mono`} name="targetTests" />}
        </Field>
        <ServerError error={save.error} />
        <FormButtons busy={save.isPending} label="Save targets" onCancel={close} />
      </form>
    </Modal>
  );
}

export function TaskTests({ detail, me }: { detail: TaskDetail; me: Me }) {
  const { task, tests } = detail;
  const [editing, setEditing] = useState(false);
  const open = task.status !== "done" && task.status !== "cancelled";
  const { delta, submitted } = tests;
  return (
    <div className="space-y-2 text-sm" data-testid="task-tests">
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="text-xs text-neutral-600 dark:text-neutral-300">Target tests:</span>
        {task.targetTests.length === 0 ? (
          <span className="text-xs text-neutral-600 dark:text-neutral-300">none named — the gate checks only that nothing newly breaks</span>
        ) : (
          <span className="font-mono text-xs break-words" data-testid="target-tests">
            {task.targetTests.join(" · ")}
          </span>
        )}
        {open && me.kind === "human" && (
          <button type="button" onClick={() => setEditing(true)} className="text-xs text-accent-700 hover:underline dark:text-accent-500">
            Change
          </button>
        )}
      </div>
      {!submitted && <p className="text-xs text-neutral-600 dark:text-neutral-300">No submission has carried per-test results yet.</p>}
      {delta && (
        <div className="space-y-1.5">
          <Group label="Fixed" names={delta.fixed} tone="good" testId="tests-fixed" />
          <Group label="Still failing" names={delta.stillFailing} tone="bad" testId="tests-still-failing" />
          <Group label="Not seen in the run" names={delta.unseen} tone="warn" testId="tests-unseen" />
          <Group label="Newly broken" names={delta.broken} tone="bad" testId="tests-broken" />
          {submitted && (
            <p className="text-xs text-neutral-600 dark:text-neutral-300">
              The run named {submitted.passed.length} passing and {submitted.failed.length} failing tests
              {tests.hasBaseline ? ", judged against the flight's run at its base commit." : "; with no baseline, every failing test that is no target counts as broken."}
            </p>
          )}
        </div>
      )}
      {tests.refusal && (
        <p
          role="status"
          data-testid="tests-refusal"
          className="rounded border border-red-300 bg-red-50 px-2 py-1 text-xs text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100"
        >
          The tests refuse an accept: {tests.refusal}.
        </p>
      )}
      {editing && <TargetsDialog detail={detail} open onClose={() => setEditing(false)} />}
    </div>
  );
}

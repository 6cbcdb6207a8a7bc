"use client";
// The approver's verdict, as on a pull request: approve, or request changes with a reason the owner can act on,
// which takes the reviewer's pending line comments along. While the tests refuse an approval (its target tests
// failing, or something newly broken), the dialog says so; a human may approve anyway, saying why.
import { useState } from "react";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import { toast } from "../toast";
import type { Task } from "./types";
import { useLineComments } from "./diff-comments";
import { useTaskAction } from "./use-board";

type Verdict = "accept" | "reject";

export function ReviewDialog({
  task,
  refusal,
  asHuman,
  open,
  onClose,
}: {
  task: Task;
  /** Why the tests refuse an accept now, or null. */
  refusal: string | null;
  asHuman: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const [verdict, setVerdict] = useState<Verdict>(refusal ? "reject" : "accept");
  const [reason, setReason] = useState(refusal ? `The tests: ${refusal}.` : "");
  const [overrule, setOverrule] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const review = useTaskAction<{ verdict: Verdict; reason?: string; overrule?: string }>(() => `/api/tasks/${task.id}/review`);
  const { comments, myId } = useLineComments(task.id);
  const pending = comments.filter((c) => c.pending && c.authorId === myId).length;
  const overruling = verdict === "accept" && refusal !== null;
  const close = () => {
    review.reset();
    setProblem(null);
    onClose();
  };
  const validate = () => {
    const why =
      verdict === "reject" && !reason.trim()
        ? "Say what has to change: the owner reworks from your reason and your line comments."
        : overruling && !overrule.trim()
          ? "Say why you accept although the tests refuse it: it is kept in the journal."
          : null;
    setProblem(why);
    return why === null;
  };
  const submit = () =>
    review.mutate(
      { verdict, ...(reason.trim() && { reason: reason.trim() }), ...(overruling && { overrule: overrule.trim() }) },
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
              {v === "accept" ? "Approve → done" : "Request changes → back to the owner"}
            </label>
          ))}
        </fieldset>
        {refusal && (
          <p role="status" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100">
            The tests refuse an accept: {refusal}.{asHuman ? " You may still approve, saying why." : " Request changes with these words."}
          </p>
        )}
        {pending > 0 && (
          <p data-testid="pending-comments" className="mb-3 text-sm text-neutral-700 dark:text-neutral-300">
            Your {pending} line {pending === 1 ? "comment goes" : "comments go"} with this verdict{verdict === "reject" ? ": the owner reworks from them, by file and line." : "."}
          </p>
        )}
        <Field label={verdict === "reject" ? "Reason (required)" : "Note (optional)"} error={overruling ? null : problem}>
          {(control) => <textarea {...control} value={reason} onChange={(e) => setReason(e.target.value)} rows={4} className={inputClass} name="reason" />}
        </Field>
        {overruling && asHuman && (
          <Field label="Why accept over the tests (required)" error={problem}>
            {(control) => <textarea {...control} value={overrule} onChange={(e) => setOverrule(e.target.value)} rows={2} className={inputClass} name="overrule" />}
          </Field>
        )}
        <ServerError error={review.error} />
        <FormButtons
          busy={review.isPending}
          label={verdict === "accept" ? (overruling ? "Approve over the tests" : "Approve") : "Request changes"}
          onCancel={close}
          tone={verdict === "reject" ? "danger" : "accent"}
        />
      </form>
    </Modal>
  );
}

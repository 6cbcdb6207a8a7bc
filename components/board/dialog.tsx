"use client";
// A modal built on <dialog>: focus stays inside, Escape closes, the server's refusal shows in it.
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import type { ApiError } from "../api";
import { withContentKeys } from "../content-keys";

export function Modal({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-label={title}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-neutral-200 bg-white p-0 text-neutral-900 shadow-xl backdrop:bg-black/40 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100"
    >
      {open && (
        <div className="p-5">
          <h2 className="mb-4 text-base font-semibold">{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** The server's words for a refusal, with the field it names when it names one. */
export function ServerError({ error }: { error: ApiError | null }) {
  if (!error) return null;
  const issues = Array.isArray(error.body.issues) ? (error.body.issues as { path: (string | number)[]; message: string }[]) : [];
  return (
    <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100">
      {issues.length > 0 ? (
        <ul className="list-disc pl-4">
          {withContentKeys(issues, (issue) => `${issue.path.join(".")}: ${issue.message}`).map(({ key, item: issue }) => (
            <li key={key}>
              {issue.path.length > 0 && <strong>{issue.path.join(".")}: </strong>}
              {issue.message}
            </li>
          ))}
        </ul>
      ) : (
        error.message
      )}
    </div>
  );
}

/** The props a control needs to be named by its label and described by its hint or error. */
export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

export function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string | null; children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const note = error ?? hint;
  return (
    <div className="mb-3 text-sm">
      <label htmlFor={id} className="mb-1 block font-medium">
        {label}
      </label>
      {children({ id, "aria-describedby": note ? `${id}-note` : undefined, "aria-invalid": error ? true : undefined })}
      {note && (
        <span id={`${id}-note`} className={`mt-1 block text-xs ${error ? "text-red-700 dark:text-red-300" : "text-neutral-500 dark:text-neutral-400"}`}>
          {note}
        </span>
      )}
    </div>
  );
}

export const inputClass = "w-full rounded-md border border-neutral-300 bg-white px-2.5 py-1.5 text-sm dark:border-neutral-700 dark:bg-neutral-950";

export function FormButtons({
  busy,
  label,
  onCancel,
  tone = "accent",
  disabled = false,
  dismiss = "Close",
}: {
  busy: boolean;
  label: string;
  onCancel: () => void;
  /** The button that leaves without acting (say something else where "Close" is the action). */
  dismiss?: string;
  tone?: "accent" | "danger";
  /** Not now, for a reason the dialog says (the submit stays visible, greyed). */
  disabled?: boolean;
}) {
  const colour = tone === "danger" ? "bg-red-700 hover:bg-red-800" : "bg-accent-600 hover:bg-accent-700";
  return (
    <div className="mt-4 flex justify-end gap-2">
      <button
        type="button"
        onClick={onCancel}
        className="rounded-md border border-neutral-300 px-3 py-1.5 text-sm hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        {dismiss}
      </button>
      <button type="submit" disabled={busy || disabled} className={`rounded-md px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60 ${colour}`}>
        {busy ? "Working…" : label}
      </button>
    </div>
  );
}

/** Submits only when `validate` finds nothing to complain about (client checks mirror the server's). */
export function onValidSubmit(validate: () => boolean, submit: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    if (validate()) submit();
  };
}

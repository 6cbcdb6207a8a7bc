"use client";
// Opening a decision from the page: question, options (one per line), default, consequence, quorum, timeboxes.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";
import { useFocusWhen } from "../use-focus-when";
import type { Decision } from "./types";

const input = "mt-1 block w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900";

export function OpenDecisionForm({ onDone }: { onDone: () => void }) {
  const [question, setQuestion] = useState("");
  const [optionsText, setOptionsText] = useState("");
  const [defaultOption, setDefaultOption] = useState("");
  const [consequence, setConsequence] = useState("");
  const [quorum, setQuorum] = useState(3);
  const [timeboxMinutes, setTimeboxMinutes] = useState(30);
  const [escalationMinutes, setEscalationMinutes] = useState(60);
  const questionField = useFocusWhen<HTMLInputElement>(true);
  const options = optionsText
    .split("\n")
    .map((o) => o.trim())
    .filter(Boolean);
  const open = useMutation<Decision, ApiError>({
    mutationFn: () =>
      apiPost<Decision>("/api/decisions", {
        question,
        options,
        defaultOption: defaultOption || options[0],
        consequence,
        quorum,
        timeboxSeconds: Math.round(timeboxMinutes * 60),
        escalationTimeboxSeconds: Math.round(escalationMinutes * 60),
      }),
    onSuccess: onDone,
  });
  return (
    <form
      aria-label="Open a decision"
      className="grid grid-cols-2 gap-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800"
      onSubmit={(e) => {
        e.preventDefault();
        open.mutate();
      }}
    >
      <label className="col-span-2 text-xs">
        Question
        <input ref={questionField} value={question} onChange={(e) => setQuestion(e.target.value)} className={input} />
      </label>
      <label className="text-xs">
        Options, one per line
        <textarea value={optionsText} onChange={(e) => setOptionsText(e.target.value)} rows={3} className={input} />
      </label>
      <div className="space-y-3">
        <label className="block text-xs">
          Default option
          <select value={defaultOption} onChange={(e) => setDefaultOption(e.target.value)} className={input}>
            {options.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label className="block text-xs">
          If nobody decides…
          <input value={consequence} onChange={(e) => setConsequence(e.target.value)} className={input} />
        </label>
      </div>
      <div className="col-span-2 flex flex-wrap gap-3">
        <label className="text-xs">
          Quorum (ballots)
          <input type="number" min={1} value={quorum} onChange={(e) => setQuorum(Number(e.target.value))} className={`${input} w-24`} />
        </label>
        <label className="text-xs">
          Timebox (minutes)
          <input type="number" min={1} value={timeboxMinutes} onChange={(e) => setTimeboxMinutes(Number(e.target.value))} className={`${input} w-28`} />
        </label>
        <label className="text-xs">
          Then humans have (minutes)
          <input type="number" min={1} value={escalationMinutes} onChange={(e) => setEscalationMinutes(Number(e.target.value))} className={`${input} w-28`} />
        </label>
      </div>
      <div className="col-span-2 flex items-center gap-3">
        <button type="submit" disabled={open.isPending} className="rounded-md bg-accent-600 px-3 py-1 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50">
          Open decision
        </button>
        <button type="button" onClick={onDone} className="text-sm text-neutral-600 hover:underline dark:text-neutral-300">
          Cancel
        </button>
        {open.isError && (
          <p className="text-xs text-red-600" role="alert">
            {open.error.message}
          </p>
        )}
      </div>
    </form>
  );
}

"use client";
// A number of tokens, edited in place: an agent's budget allowance, the flights it may start.
import { useState } from "react";

export function TokensForm({
  label,
  initial,
  step,
  saving,
  error,
  onSave,
  onCancel,
}: {
  label: string;
  initial: number;
  step: number;
  saving: boolean;
  error: string | null;
  onSave: (tokens: number) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(String(initial));
  const tokens = Number(value);
  const valid = value.trim() !== "" && Number.isInteger(tokens) && tokens >= 0;
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onSave(tokens);
      }}
    >
      <label className="flex items-center gap-1 text-xs">
        <span>{label}</span>
        <input
          type="number"
          min={0}
          step={step}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="w-32 rounded border border-neutral-300 px-2 py-0.5 text-xs tabular-nums dark:border-neutral-700 dark:bg-neutral-900"
        />
      </label>
      <button type="submit" disabled={!valid || saving} className="rounded bg-accent-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50">
        Save
      </button>
      <button type="button" onClick={onCancel} className="text-xs text-neutral-500">
        Cancel
      </button>
      {error && (
        <p role="alert" className="w-full text-xs text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}

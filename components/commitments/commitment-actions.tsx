"use client";
// What a viewer can do to one row: its owner confirms, fulfils or withdraws (with a reason); add what it waits on.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, type ApiError } from "../api";
import type { Me } from "../types";
import { useFocusWhen } from "../use-focus-when";
import type { Commitment } from "./types";

type Step = "idle" | "fulfil" | "withdraw" | "waits";

const small = "rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800";

export function CommitmentActions({ commitment, me, confirmed }: { commitment: Commitment; me: Me; confirmed: Commitment[] }) {
  const [step, setStep] = useState<Step>("idle");
  const [text, setText] = useState("");
  const act = useMutation<unknown, ApiError, { path: string; body: unknown }>({
    mutationFn: ({ path, body }) => apiPost(`/api/commitments/${commitment.id}/${path}`, body),
    onSuccess: () => {
      setStep("idle");
      setText("");
    },
  });
  const reasonField = useFocusWhen<HTMLInputElement>(step === "fulfil" || step === "withdraw");
  const mine = commitment.ownerId === me.id;
  const live = commitment.status === "candidate" || commitment.status === "confirmed";
  const mayLink = commitment.status === "confirmed" && (mine || me.kind === "human");
  if (!live) return null;
  if (step === "fulfil" || step === "withdraw") {
    return (
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          act.mutate({ path: step, body: { reason: text } });
        }}
      >
        <input
          ref={reasonField}
          aria-label={step === "fulfil" ? "How it was fulfilled" : "Why it is withdrawn"}
          placeholder={step === "fulfil" ? "how (evidence)" : "why"}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-40 rounded border border-neutral-300 bg-white px-1.5 py-0.5 text-xs dark:border-neutral-700 dark:bg-neutral-900"
        />
        <button type="submit" disabled={!text.trim() || act.isPending} className={small}>
          {step === "fulfil" ? "Fulfil" : "Withdraw"}
        </button>
        <button type="button" onClick={() => setStep("idle")} className="text-xs text-neutral-500 hover:underline">
          cancel
        </button>
        {act.isError && <span className="text-xs text-red-600">{act.error.message}</span>}
      </form>
    );
  }
  if (step === "waits") {
    const choices = confirmed.filter((c) => c.id !== commitment.id && !commitment.blockers.some((b) => b.id === c.id));
    return (
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          act.mutate({ path: "dependencies", body: { blockerId: text } });
        }}
      >
        <select
          aria-label="Waits on"
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-44 rounded border border-neutral-300 bg-white px-1 py-0.5 text-xs dark:border-neutral-700 dark:bg-neutral-900"
        >
          <option value="">waits on…</option>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              C-{c.number} {c.what}
            </option>
          ))}
        </select>
        <button type="submit" disabled={!text || act.isPending} className={small}>
          Add
        </button>
        <button type="button" onClick={() => setStep("idle")} className="text-xs text-neutral-500 hover:underline">
          cancel
        </button>
        {act.isError && <span className="text-xs text-red-600">{act.error.message}</span>}
      </form>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-1">
      {mine && commitment.status === "candidate" && (
        <button type="button" className={small} disabled={act.isPending} onClick={() => act.mutate({ path: "confirm", body: {} })}>
          Confirm
        </button>
      )}
      {mine && commitment.status === "confirmed" && (
        <button type="button" className={small} onClick={() => setStep("fulfil")}>
          Fulfil…
        </button>
      )}
      {mine && (
        <button type="button" className={small} onClick={() => setStep("withdraw")}>
          Withdraw…
        </button>
      )}
      {mayLink && (
        <button type="button" className={small} onClick={() => setStep("waits")}>
          Waits on…
        </button>
      )}
      {act.isError && <span className="text-xs text-red-600">{act.error.message}</span>}
    </div>
  );
}

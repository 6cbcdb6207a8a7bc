"use client";
// One live reservation: holder, patterns, mode, lease countdown, reason; humans may force-release it with a reason.
import { useState } from "react";
import { Avatar } from "../avatar";
import { LeaseCountdown } from "../lease-countdown";
import type { Me } from "../types";
import { useFocusWhen } from "../use-focus-when";
import type { Reservation } from "./types";
import { useForceRelease } from "./use-reservations";

function ForceRelease({ reservation }: { reservation: Reservation }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const release = useForceRelease();
  const reasonField = useFocusWhen<HTMLInputElement>(open);
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-50 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        Force release
      </button>
    );
  }
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        release.mutate({ id: reservation.id, reason }, { onSuccess: () => setOpen(false) });
      }}
    >
      <input
        ref={reasonField}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder={`Why end R-${reservation.fence}? ${reservation.holderName} is told.`}
        aria-label="Reason for the force release"
        className="min-w-48 flex-1 rounded border border-neutral-300 px-2 py-0.5 text-xs dark:border-neutral-700 dark:bg-neutral-900"
      />
      <button type="submit" disabled={!reason.trim() || release.isPending} className="rounded bg-accent-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50">
        End it
      </button>
      <button type="button" onClick={() => setOpen(false)} className="text-xs text-neutral-500">
        Cancel
      </button>
      {release.isError && <p className="w-full text-xs text-red-600">{release.error.message}</p>}
    </form>
  );
}

export function ReservationRow({ reservation, me }: { reservation: Reservation; me: Me | undefined }) {
  const r = reservation;
  return (
    <li className="space-y-1 py-2" data-testid="reservation" data-holder={r.holderName}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Avatar id={r.holderId} name={r.holderName} kind="agent" size="sm" />
        <span className="font-medium">{r.holderName}</span>
        <span
          className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${r.mode === "exclusive" ? "bg-accent-50 text-accent-700 dark:bg-neutral-900" : "bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-200"}`}
        >
          {r.mode}
        </span>
        <span className="text-xs text-neutral-500">
          R-{r.fence}
          {r.scope !== "default" ? ` · ${r.scope}` : ""}
        </span>
        <LeaseCountdown expiresAt={r.expiresAt} />
      </div>
      <p className="flex flex-wrap gap-1">
        {r.patterns.map((p) => (
          <code key={p} className="rounded bg-neutral-100 px-1.5 py-0.5 font-mono text-xs dark:bg-neutral-900">
            {p}
          </code>
        ))}
      </p>
      <p className="text-xs text-neutral-600 dark:text-neutral-300">{r.reason}</p>
      {me?.kind === "human" && <ForceRelease reservation={r} />}
    </li>
  );
}

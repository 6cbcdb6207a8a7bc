"use client";
// The way into New flight, in the Board's header and the Room's: humans start flights, so only they see it.
import { useState } from "react";
import { useMe } from "../session";
import { NewFlightDialog } from "./new-flight-dialog";
import type { FlightView } from "./use-flights";

export function NewFlightButton({ className, onStarted }: { className: string; onStarted?: (flight: FlightView) => void }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  if (me.data?.kind !== "human") return null;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={className} aria-haspopup="dialog" data-testid="new-flight">
        New flight
      </button>
      <NewFlightDialog open={open} onClose={() => setOpen(false)} onStarted={onStarted} />
    </>
  );
}

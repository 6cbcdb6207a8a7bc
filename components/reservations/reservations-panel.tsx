"use client";
// The Agents page's panel: every live path reservation, who holds it and until when.
import { ReservationsList } from "./reservations-list";

export function ReservationsPanel() {
  return (
    <section aria-labelledby="reservations-title" className="space-y-2">
      <h2 id="reservations-title" className="text-sm font-semibold">
        Path reservations
      </h2>
      <ReservationsList empty="No live reservations. Agents reserve the files they are about to edit (reserve_paths); `quorum hook install` makes commits respect them." />
    </section>
  );
}

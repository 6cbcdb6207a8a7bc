"use client";
// Live path reservations (all of them, or one task's), with loading, error and empty states.
import { useMe } from "../session";
import { ReservationRow } from "./reservation-row";
import { useReservations } from "./use-reservations";

export function ReservationsList({ filter = "", empty }: { filter?: string; empty: string }) {
  const reservations = useReservations(filter);
  const me = useMe().data;
  if (reservations.isPending) return <div className="h-12 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (reservations.isError) return <p className="text-sm text-red-600">Could not load reservations: {reservations.error.message}</p>;
  if (reservations.data.items.length === 0) return <p className="text-sm text-neutral-500">{empty}</p>;
  return (
    <ul className="divide-y divide-neutral-100 dark:divide-neutral-900" aria-live="polite" data-testid="reservations">
      {reservations.data.items.map((r) => (
        <ReservationRow key={r.id} reservation={r} me={me} />
      ))}
    </ul>
  );
}

"use client";
// The task drawer's section: the paths reserved for this task.
import { ReservationsList } from "./reservations-list";

export function TaskReservations({ taskId }: { taskId: string }) {
  return (
    <section className="border-t border-neutral-200 px-5 py-3 dark:border-neutral-800">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase dark:text-neutral-400">Reserved paths</h3>
      <ReservationsList filter={`taskId=${encodeURIComponent(taskId)}`} empty="No paths reserved for this task." />
    </section>
  );
}

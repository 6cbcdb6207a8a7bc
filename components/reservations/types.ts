// The reservation as the browser receives it: server/reservations' own view type (type-only).
export type { ReservationView as Reservation } from "@/server/reservations/view";
export type { ForceReleaseResult } from "@/server/reservations/force-release";

// The reservation as the browser receives it: domain/reservations' own view type (type-only).
export type { ReservationView as Reservation } from "@/domain/reservations/view";
export type { ForceReleaseResult } from "@/domain/reservations/force-release";

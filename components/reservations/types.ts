// The reservation as the browser receives it (a mirror of server/reservations/view.ts).
export interface Reservation {
  id: string;
  fence: number;
  scope: string;
  holderId: string;
  holderName: string;
  patterns: string[];
  mode: "exclusive" | "shared";
  reason: string;
  taskId: string | null;
  status: "active" | "released" | "expired" | "force_released";
  ttlSeconds: number;
  expiresAt: string;
  createdAt: string;
  endedAt: string | null;
  endReason: string | null;
}

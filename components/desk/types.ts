// What waits for the signed-in human, as GET /api/me/waiting answers it.
export type { WaitingItem, WaitingKind, WaitingView } from "@/domain/desk/waiting";

// Shapes the browser receives from the API shared by several pages: the server's own view types
// (type-only imports; nothing of domain/ reaches the browser bundle), never copies of them.
export type { Page } from "@/domain/page";
/** GET /api/me: the signed-in principal. */
export type { Principal as Me } from "@/domain/principal";
export type { RosterEntry } from "@/domain/principals/list-principals";
/** GET /api/agents: everyone with presence; agents also with their numbers. */
export type { RosterRow } from "@/domain/roster/roster";
export type { MessageView as Message } from "@/domain/rooms/message-view";
export type { RoomView as Room } from "@/domain/rooms/rooms";
export type { JournalEntry } from "@/domain/journal/list";
/** The room's roster entry: presence, and the focus window of an agent at work. */
export type { PresenceEntry } from "@/domain/rooms/presence";
export type { GateRejection } from "@/domain/rooms/gate-log";

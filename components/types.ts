// Shapes the browser receives from the API shared by several pages: the server's own view types
// (type-only imports; nothing of server/ reaches the browser bundle), never copies of them.
export type { Page } from "@/server/page";
/** GET /api/me: the signed-in principal. */
export type { Principal as Me } from "@/server/principal";
export type { RosterEntry } from "@/server/principals/list-principals";
/** GET /api/agents: everyone with presence; agents also with their numbers. */
export type { RosterRow } from "@/server/roster/roster";
export type { MessageView as Message } from "@/server/rooms/message-view";
export type { RoomView as Room } from "@/server/rooms/rooms";
export type { JournalEntry } from "@/server/journal/list";
/** The room's roster entry: presence, and the focus window of an agent at work. */
export type { PresenceEntry } from "@/server/relay/presence";
export type { GateRejection } from "@/server/relay/gate-log";

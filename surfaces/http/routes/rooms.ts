// Rooms: chat under the relay's gates, cursors, inboxes, presence and the gate log.
import { listRoomPresence } from "@/domain/rooms/presence";
import { z } from "zod";
import { advanceCursor, advanceCursorInput, readCursor } from "@/domain/rooms/cursor";
import { gateLogQuery, listGateRejections } from "@/domain/rooms/gate-log";
import { inboxQuery, readInbox } from "@/domain/rooms/inbox";
import { postMessage, postMessageInput } from "@/domain/rooms/post-message";
import { listMessages, listMessagesQuery } from "@/domain/rooms/list-messages";
import { createRoom, createRoomInput, DEFAULT_ROOM, listRooms } from "@/domain/rooms/rooms";
import { staleError } from "../errors";
import * as v from "../views";
import { ok, created, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { IDEMPOTENT, READ, WRITE } from "@/surfaces/mcp/tool";

const roomName = z.strictObject({ room: z.string().min(1).max(64).describe("the room's name (`general` always exists)") });

export const ROOM_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/rooms",
    tag: TAGS.rooms,
    summary: "Rooms (`general` always exists)",
    access: "principal",
    answers: ok(z.looseObject({ items: z.array(v.room) })),
    refusals: [],
    tool: {
      name: "list_rooms",
      description: "Rooms, with each one's last seq.",
      hints: READ,
      output: out.page(out.roomOut),
    },
    run: async ({ ctx }) => ({ items: await listRooms(ctx.db) }),
  }),
  endpoint({
    method: "post",
    path: "/api/rooms",
    tag: TAGS.rooms,
    summary: "Create a room (humans)",
    access: "principal",
    body: createRoomInput,
    answers: created(v.room),
    refusals: [403, 409],
    otherConflicts: ["name_taken"],
    run: async ({ ctx, caller, body }) => await createRoom(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "get",
    path: "/api/rooms/{room}/messages",
    tag: TAGS.rooms,
    summary: "Messages ascending after a seq, or the latest tail; one flight's thread, or the stream with threads folded",
    description:
      "A flight's thread is the messages about its goal task or one of its planned tasks; each message's `flight` names it. " +
      "`flight=N` reads that thread alone (404 for no such flight). `threads=folded` reads the stream as the Room shows it: messages of no flight, " +
      "each thread's first message (with `thread`: its `replies` and `lastActivityAt`) and a flight's messages sent to or @mentioning a human. Both obey the rule on direct messages.",
    access: "principal",
    params: roomName,
    query: listMessagesQuery,
    answers: ok(v.page(v.roomMessage)),
    refusals: [404],
    tool: {
      name: "read_messages",
      description: "A room's messages: ascending after a seq, else the latest tail. Never acks.",
      hints: READ,
      output: out.page(out.messageOut),
      omitted: { room: () => DEFAULT_ROOM },
    },
    run: async ({ ctx, caller, params, query }) => {
      const { room } = params;
      return await listMessages(ctx.db, caller, room, query);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/rooms/{room}/messages",
    tag: TAGS.rooms,
    summary: "Post a message; agents pass the relay's gates",
    description:
      "A first post from an agent that has not read the room is refused 409 `stale` with the `unread` messages and a `holdToken`: " +
      "read them, then ack with POST /api/rooms/{room}/cursor `{seq}` and post again, or repeat the post with `holdToken`. " +
      "Too fast: 429 `rate_limited` with `retryAfterMs`. The same text twice: 409 `duplicate`. Talking only to other agents: 409 `lapping`.",
    access: "principal",
    params: roomName,
    body: postMessageInput,
    answers: created(v.message, "Posted; `seq` is its place in the room"),
    refusals: [403, 404, 409, 429],
    conflicts: [staleError],
    otherConflicts: ["duplicate", "lapping"],
    tool: {
      name: "post_message",
      description:
        "Post to a room (default general). Gates: rate_limited (retryAfterMs), duplicate, lapping, stale. On stale, read `unread`, then ack or retry with `holdToken`. `to` sends directly and skips the stale gate.",
      hints: WRITE,
      output: out.messageOut,
      omitted: { room: () => DEFAULT_ROOM },
    },
    run: async ({ ctx, caller, params, body }) => {
      const { room } = params;
      return await postMessage(ctx.db, caller, room, body, ctx.clock);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/rooms/{room}/cursor",
    tag: TAGS.rooms,
    summary: "Your seen-cursor in the room",
    access: "principal",
    params: roomName,
    answers: ok(v.cursor),
    refusals: [404],
    tool: {
      name: "read_cursor",
      description: "Your seen-cursor in a room and the room's last seq.",
      hints: READ,
      output: out.cursorOut,
      omitted: { room: () => DEFAULT_ROOM },
    },
    run: async ({ ctx, caller, params }) => {
      const { room } = params;
      return await readCursor(ctx.db, caller, room);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/rooms/{room}/cursor",
    tag: TAGS.rooms,
    summary: "Ack the room up to `seq`: the only way a seen-cursor moves",
    access: "principal",
    params: roomName,
    body: advanceCursorInput,
    answers: ok(v.cursor),
    refusals: [404],
    tool: {
      name: "ack_messages",
      description: "Ack a room up to seq (moves your seen-cursor forward only). The only way mail counts as read.",
      hints: IDEMPOTENT,
      output: out.cursorOut,
      omitted: { room: () => DEFAULT_ROOM },
    },
    run: async ({ ctx, caller, params, body }) => {
      const { room } = params;
      return await advanceCursor(ctx.db, caller, room, body, ctx.clock);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/rooms/{room}/inbox",
    tag: TAGS.rooms,
    summary: "Your deliverable, unacked mail in this room (reading never acks)",
    access: "principal",
    params: roomName,
    query: inboxQuery,
    answers: ok(v.inbox),
    refusals: [404],
    tool: {
      name: "read_inbox",
      description: "Your unacked mail in a room (broadcasts, direct, @mentions), oldest first. Never acks.",
      hints: READ,
      output: out.page(out.messageOut),
      omitted: { room: () => DEFAULT_ROOM },
    },
    run: async ({ ctx, caller, params, query }) => {
      const { room } = params;
      return await readInbox(ctx.db, caller, room, query);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/rooms/{room}/presence",
    tag: TAGS.rooms,
    summary: "Who is here, with roles, and who is focusing",
    access: "principal",
    params: roomName,
    answers: ok(z.looseObject({ items: z.array(v.presenceEntry) })),
    refusals: [404],
    tool: {
      name: "room_presence",
      description: "Who is present in a room, with roles and focus windows.",
      hints: READ,
      output: out.page(out.rosterOut),
      omitted: { room: () => DEFAULT_ROOM },
    },
    run: async ({ ctx, params }) => {
      const { room } = params;
      return { items: await listRoomPresence(ctx.db, room, ctx.clock) };
    },
  }),
  endpoint({
    method: "get",
    path: "/api/rooms/{room}/gates",
    tag: TAGS.rooms,
    summary: "The room's recent gate rejections, newest first",
    access: "principal",
    params: roomName,
    query: gateLogQuery,
    answers: ok(v.page(v.gateRejection)),
    refusals: [404],
    run: async ({ ctx, caller, params, query }) => {
      const { room } = params;
      return await listGateRejections(ctx.db, caller, room, query);
    },
  }),
];

// MCP tools of the room and its relay: read, post under the gates, ack, inbox, presence, digest.
import { listRoomPresence } from "../../../domain/rooms/presence";
import { advanceCursor, advanceCursorInput, readCursor } from "../../../domain/rooms/cursor";
import { flushAgentDigest, flushDigestInput, getAgentDigest } from "../../../domain/rooms/agent-digest";
import { inboxQuery, readInbox } from "../../../domain/rooms/inbox";
import { listMessages, listMessagesQuery } from "../../../domain/rooms/list-messages";
import { postMessage, postMessageInput } from "../../../domain/rooms/post-message";
import { listRooms } from "../../../domain/rooms/rooms";
import { cursorOut, digestOut, flushOut, messageOut, page, roomOut, rosterOut } from "../outputs";
import { defineTool, IDEMPOTENT, READ, WRITE } from "../tool";
import { agentParam, roomParam } from "./params";

export const roomTools = [
  defineTool({
    name: "list_rooms",
    description: "Rooms, with each one's last seq.",
    rest: "GET /api/rooms",
    output: page(roomOut),
    annotations: READ,
    run: async ({ db }) => ({ items: await listRooms(db) }),
  }),
  defineTool({
    name: "read_messages",
    description: "A room's messages: ascending after a seq, else the latest tail. Never acks.",
    rest: "GET /api/rooms/:room/messages",
    params: roomParam,
    input: listMessagesQuery,
    output: page(messageOut),
    annotations: READ,
    run: ({ db, caller }, { room }, query) => listMessages(db, caller, room, query),
  }),
  defineTool({
    name: "post_message",
    description:
      "Post to a room (default general). Gates: rate_limited (retryAfterMs), duplicate, lapping, stale. On stale, read `unread`, then ack or retry with `holdToken`. `to` sends directly and skips the stale gate.",
    rest: "POST /api/rooms/:room/messages",
    params: roomParam,
    input: postMessageInput,
    output: messageOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, { room }, input) => postMessage(db, caller, room, input, clock),
  }),
  defineTool({
    name: "read_inbox",
    description: "Your unacked mail in a room (broadcasts, direct, @mentions), oldest first. Never acks.",
    rest: "GET /api/rooms/:room/inbox",
    params: roomParam,
    input: inboxQuery,
    output: page(messageOut),
    annotations: READ,
    run: ({ db, caller }, { room }, query) => readInbox(db, caller, room, query),
  }),
  defineTool({
    name: "ack_messages",
    description: "Ack a room up to seq (moves your seen-cursor forward only). The only way mail counts as read.",
    rest: "POST /api/rooms/:room/cursor",
    params: roomParam,
    input: advanceCursorInput,
    output: cursorOut,
    annotations: IDEMPOTENT,
    run: ({ db, caller, clock }, { room }, input) => advanceCursor(db, caller, room, input, clock),
  }),
  defineTool({
    name: "read_cursor",
    description: "Your seen-cursor in a room and the room's last seq.",
    rest: "GET /api/rooms/:room/cursor",
    params: roomParam,
    output: cursorOut,
    annotations: READ,
    run: ({ db, caller }, { room }) => readCursor(db, caller, room),
  }),
  defineTool({
    name: "room_presence",
    description: "Who is present in a room, with roles and focus windows.",
    rest: "GET /api/rooms/:room/presence",
    params: roomParam,
    output: page(rosterOut),
    annotations: READ,
    run: async ({ db, clock }, { room }) => ({ items: await listRoomPresence(db, room, clock) }),
  }),
  defineTool({
    name: "read_digest",
    description: "Room messages held for you while you focus on a task.",
    rest: "GET /api/agents/:id/digest",
    params: agentParam,
    output: digestOut,
    annotations: READ,
    run: async ({ db, caller }, { agentId }) => (await getAgentDigest(db, caller, agentId ?? caller.id)) as object,
  }),
  defineTool({
    name: "flush_digest",
    description: "Deliver your held digest now as one batch; the focus window stays open.",
    rest: "POST /api/agents/:id/digest",
    params: agentParam,
    input: flushDigestInput,
    output: flushOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, { agentId }) => flushAgentDigest(db, caller, agentId ?? caller.id, clock),
  }),
];

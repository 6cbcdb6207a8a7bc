// Rooms: chat under the relay's gates, cursors, inboxes, presence and the gate log.
import { z } from "zod";
import { advanceCursorInput } from "@/server/relay/cursor";
import { gateLogQuery } from "@/server/relay/gate-log";
import { inboxQuery } from "@/server/relay/inbox";
import { postMessageInput } from "@/server/relay/post-message";
import { listMessagesQuery } from "@/server/rooms/list-messages";
import { createRoomInput } from "@/server/rooms/rooms";
import { staleError } from "../errors";
import * as v from "../views";
import { ok, created, type RouteSpec, TAGS } from "./route-spec";

const roomName = z.strictObject({ room: z.string().min(1).max(64).describe("the room's name (`general` always exists)") });

export const ROOM_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/rooms",
    tag: TAGS.rooms,
    summary: "Rooms (`general` always exists)",
    access: "principal",
    answers: ok(z.looseObject({ items: z.array(v.room) })),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/rooms",
    tag: TAGS.rooms,
    summary: "Create a room (humans)",
    access: "principal",
    body: createRoomInput,
    answers: created(v.room),
    refusals: [403, 409],
    otherConflicts: ["name_taken"],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/messages",
    tag: TAGS.rooms,
    summary: "Messages ascending after a seq, or the latest tail",
    access: "principal",
    params: roomName,
    query: listMessagesQuery,
    answers: ok(v.page(v.message)),
    refusals: [404],
  },
  {
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
  },
  {
    method: "get",
    path: "/api/rooms/{room}/cursor",
    tag: TAGS.rooms,
    summary: "Your seen-cursor in the room",
    access: "principal",
    params: roomName,
    answers: ok(v.cursor),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/rooms/{room}/cursor",
    tag: TAGS.rooms,
    summary: "Ack the room up to `seq`: the only way a seen-cursor moves",
    access: "principal",
    params: roomName,
    body: advanceCursorInput,
    answers: ok(v.cursor),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/inbox",
    tag: TAGS.rooms,
    summary: "Your deliverable, unacked mail in this room (reading never acks)",
    access: "principal",
    params: roomName,
    query: inboxQuery,
    answers: ok(v.inbox),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/presence",
    tag: TAGS.rooms,
    summary: "Who is here, with roles, and who is focusing",
    access: "principal",
    params: roomName,
    answers: ok(z.looseObject({ items: z.array(v.presenceEntry) })),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/gates",
    tag: TAGS.rooms,
    summary: "The room's recent gate rejections, newest first",
    access: "principal",
    params: roomName,
    query: gateLogQuery,
    answers: ok(v.page(v.gateRejection)),
    refusals: [404],
  },
];

// Rooms and what moves through them: messages, the relay's inbox, cursors and digests, and the gates'
// refusals. Tasks' threads reuse the message view defined here.
import { z } from "zod";
import type { CursorView } from "@/domain/rooms/cursor";
import type { DigestView } from "@/domain/rooms/digest";
import type { GateRejection } from "@/domain/rooms/gate-log";
import { GATE_NAMES } from "@/domain/rooms/gate-refusal";
import type { InboxPage } from "@/domain/rooms/inbox";
import type { RoomMessage } from "@/domain/rooms/list-messages";
import type { MessageView } from "@/domain/rooms/message-view";
import type { RoomView } from "@/domain/rooms/rooms";
import { open, uuid, when, kind, int } from "./base";
import { rosterEntry } from "./principals";

export const room = open({ name: z.string(), lastSeq: int, createdAt: when }) satisfies z.ZodType<RoomView>;
export const message = open({
  id: int,
  seq: int,
  room: z.string(),
  senderId: uuid,
  senderName: z.string(),
  senderKind: kind,
  to: uuid.nullable(),
  toName: z.string().nullable(),
  performative: z.string().nullable(),
  taskId: uuid.nullable(),
  flight: int.nullable(),
  body: z.string(),
  payload: z.unknown(),
  mentions: z.array(uuid),
  heldSeq: int.nullable(),
  createdAt: when,
}) satisfies z.ZodType<MessageView>;
/** A message in a room's page: the first of a folded flight thread says how many replies follow and when the latest came. */
export const roomMessage = message.extend({ thread: open({ replies: int, lastActivityAt: when }).optional() }) satisfies z.ZodType<RoomMessage>;
export const inbox = open({ items: z.array(message.extend({ addressed: z.boolean() })), next: int.optional() }) satisfies z.ZodType<InboxPage>;
export const cursor = open({ room: z.string(), seq: int, lastSeq: int, moved: z.boolean() }) satisfies z.ZodType<CursorView>;
export const digest = open({
  agentId: uuid,
  focusing: z.boolean(),
  taskId: uuid.nullable(),
  openedAt: when.nullable(),
  items: z.array(message.extend({ queuedAt: when })),
  dropped: int,
}) satisfies z.ZodType<DigestView>;
export const flushed = open({ flushed: z.array(int), dropped: int });
export const gateRejection = open({
  id: int,
  t: when,
  room: z.string(),
  gate: z.enum(GATE_NAMES),
  reason: z.string(),
  message: z.string(),
  senderId: uuid,
  senderName: z.string(),
  bodyPreview: z.string(),
  figures: z.record(z.string(), z.unknown()),
}) satisfies z.ZodType<GateRejection>;
export const presenceEntry = rosterEntry;

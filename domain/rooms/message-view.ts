// The JSON shape of a message, as the API and the UI see it.
import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { messages, principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import { flightNumberOf } from "./flight-threads";

export interface MessageView {
  id: number;
  seq: number;
  room: string;
  senderId: string;
  senderName: string;
  senderKind: "human" | "agent" | "system";
  to: string | null;
  toName: string | null;
  performative: string | null;
  taskId: string | null;
  /** The flight whose thread it is in: its task is that flight's goal or one of its planned tasks (./flight-threads.ts). */
  flight: number | null;
  body: string;
  payload: unknown;
  mentions: string[];
  heldSeq: number | null;
  createdAt: string;
}

export const sender = alias(principals, "sender");
export const recipient = alias(principals, "recipient");

/** The columns to select (joined with sender and recipient) to build a MessageView. */
export const messageColumns = {
  message: messages,
  senderName: sender.name,
  senderKind: sender.kind,
  toName: recipient.name,
  flight: flightNumberOf(messages.taskId),
};

/** A select of messages joined with their sender and recipient, each row ready for `toMessageView`; add where/order/limit to taste. */
export function selectMessageViews(db: Executor) {
  return db.select(messageColumns).from(messages).innerJoin(sender, eq(sender.id, messages.senderId)).leftJoin(recipient, eq(recipient.id, messages.toId)).$dynamic();
}

export function toMessageView(row: {
  message: typeof messages.$inferSelect;
  senderName: string;
  senderKind: "human" | "agent" | "system";
  toName: string | null;
  flight: number | null;
}): MessageView {
  const m = row.message;
  return {
    id: m.id,
    seq: m.seq,
    room: m.room,
    senderId: m.senderId,
    senderName: row.senderName,
    senderKind: row.senderKind,
    to: m.toId,
    toName: row.toName,
    performative: m.performative,
    taskId: m.taskId,
    flight: row.flight,
    body: m.body,
    payload: m.payload,
    mentions: m.mentions,
    heldSeq: m.heldSeq,
    createdAt: m.createdAt.toISOString(),
  };
}

// Rooms and their messages; `seq` is per room, gap-free and monotonic.
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";

export const PERFORMATIVES = ["REQUEST", "INFORM", "PROPOSE", "ACCEPT", "REJECT", "DONE", "ERROR"] as const;
export type Performative = (typeof PERFORMATIVES)[number];

export const rooms = pgTable(
  "rooms",
  {
    name: text("name").primaryKey(),
    // The last seq handed out; bumping it row-locks the room, which serialises posting per room.
    lastSeq: bigint("last_seq", { mode: "number" }).notNull().default(0),
    createdBy: uuid("created_by").references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("rooms_name_check", sql`${t.name} ~ '^[a-z0-9][a-z0-9-]{0,63}$'`)],
);

export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    room: text("room")
      .notNull()
      .references(() => rooms.name),
    seq: bigint("seq", { mode: "number" }).notNull(),
    senderId: uuid("sender_id")
      .notNull()
      .references(() => principals.id),
    toId: uuid("to_id").references(() => principals.id),
    performative: text("performative", { enum: PERFORMATIVES }),
    taskId: uuid("task_id"),
    body: text("body").notNull(),
    payload: jsonb("payload"),
    mentions: uuid("mentions").array().notNull().default(sql`'{}'::uuid[]`),
    heldSeq: bigint("held_seq", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("messages_room_seq_idx").on(t.room, t.seq),
    index("messages_sender_idx").on(t.senderId, t.room),
    // The relay's gates: a sender's messages in a room by seq (lapping), and verbatim duplicates.
    index("messages_room_sender_seq_idx").on(t.room, t.senderId, t.seq),
    // The rate floor: a sender's latest messages in every room.
    index("messages_sender_created_idx").on(t.senderId, t.createdAt),
    index("messages_room_sender_body_idx").on(t.room, t.senderId, sql`md5(${t.body})`),
    index("messages_to_idx").on(t.toId),
    index("messages_task_idx").on(t.taskId),
    check("messages_body_size_check", sql`octet_length(${t.body}) between 1 and 16384`),
    check("messages_payload_size_check", sql`${t.payload} is null or octet_length(${t.payload}::text) <= 65536`),
    check("messages_performative_check", sql`${t.performative} is null or ${t.performative} in ('REQUEST','INFORM','PROPOSE','ACCEPT','REJECT','DONE','ERROR')`),
  ],
);

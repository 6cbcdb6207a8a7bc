// Test fixtures for the relay: a fresh room per test, and posts whose refusals come back as values.
import { getDb } from "../../db/client";
import type { Clock } from "../clock";
import { QuorumError } from "../errors";
import type { Principal } from "../principals/types";
import { postMessage, type PostMessageInput, type PostMessageOptions } from "./post-message";
import { createRoom, getRoom } from "../rooms/rooms";
import type { MessageView } from "../rooms/message-view";
import { advanceCursor } from "./cursor";

export type PostOutcome =
  | { ok: true; message: MessageView }
  | { ok: false; status: number; code: string; body: Record<string, unknown> };

/** A new room created by `human`, so gate state starts empty. */
export async function freshRoom(human: Principal, prefix = "r"): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
  await createRoom(getDb(), human, { name });
  return name;
}

export async function tryPost(
  who: Principal,
  room: string,
  input: PostMessageInput | string,
  clock: Clock,
  options?: PostMessageOptions,
): Promise<PostOutcome> {
  try {
    const message = await postMessage(getDb(), who, room, typeof input === "string" ? { body: input } : input, clock, options);
    return { ok: true, message };
  } catch (error) {
    if (!(error instanceof QuorumError)) throw error;
    return { ok: false, status: error.status, code: error.code, body: error.toBody() };
  }
}

/** Acks everything in the room so far, as a polite agent does before it speaks. */
export async function ackAll(who: Principal, room: string, clock: Clock): Promise<void> {
  const { lastSeq } = await getRoom(getDb(), room);
  await advanceCursor(getDb(), who, room, { seq: lastSeq }, clock);
}

/** Ack, then post: freshness never interferes, so a test sees the other gates alone. */
export async function ackAndPost(who: Principal, room: string, input: PostMessageInput | string, clock: Clock): Promise<PostOutcome> {
  await ackAll(who, room, clock);
  return tryPost(who, room, input, clock);
}

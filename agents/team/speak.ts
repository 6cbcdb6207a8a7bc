// How a team member speaks: through the room's one send path, under every gate, like any agent.
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { QuorumError } from "../../domain/errors";
import { FLIGHT_ROOM } from "../../domain/flights/launch";
import { advanceCursor } from "../../domain/rooms/cursor";
import { getRoom } from "../../domain/rooms/rooms";
import { postMessage, type PostMessageInput } from "../../domain/rooms/post-message";
import type { MessageView } from "../../domain/rooms/message-view";
import type { Principal } from "../../domain/principal";
import type { Pace } from "../loop";

/** The room where the team speaks (the same one a flight's REQUEST is posted in). */
export const TEAM_ROOM = FLIGHT_ROOM;

/**
 * Posts as `who`. The harness has put the room's news into the member's runs as mail, so it acks
 * up to the latest seq first (that is the freshness gate's contract). A gate refusal is the relay
 * doing its job: it is logged and the message is dropped, never retried in a loop.
 */
export async function speak(db: Db, who: Principal, input: PostMessageInput, clock: Clock, pace?: Pace): Promise<MessageView | null> {
  // Someone may speak between our ack and our post: read what they said (ack again) and retry, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      const room = await getRoom(db, TEAM_ROOM);
      if (room.lastSeq > 0) await advanceCursor(db, who, TEAM_ROOM, { seq: room.lastSeq }, clock);
      const posted = await postMessage(db, who, TEAM_ROOM, input, clock);
      await pace?.();
      return posted;
    } catch (error) {
      if (!(error instanceof QuorumError) || error.status === 400) throw error;
      if (error.code === "stale" && attempt < 3) continue;
      console.warn(`[team] ${who.name} was held by the relay: ${error.code} — ${error.message}`);
      return null;
    }
  }
}

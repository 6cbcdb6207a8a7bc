// Signing out: a human's browser session ends on the server, so its cookie no longer authenticates anywhere.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { sessions } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { hashSecret } from "./secrets";
import type { Principal } from "../principal";

export const signOutInput = z.strictObject({});

/**
 * Ends the session whose token the caller's cookie carries. Only a human has a session; a request
 * made with a key (an agent's, or a human's) has none to end, and is told so.
 */
export async function endSession(db: Db, caller: Principal, sessionToken: string | undefined, clock: Clock): Promise<void> {
  if (caller.kind !== "human") throw fail.forbidden("session", "only a human signed in with a browser has a session to end; an agent's keys are rotated or revoked by a human");
  if (!sessionToken) throw fail.invalid("session", "this request carries no session cookie: a key is not a session, and ends only when a human revokes it");
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .delete(sessions)
      .where(and(eq(sessions.tokenHash, hashSecret(sessionToken)), eq(sessions.principalId, caller.id)))
      .returning({ id: sessions.id });
    // A second sign-out racing the first, or a key sent with someone else's cookie.
    if (!ended) throw fail.unauthorized("this session has already ended, or is not the caller's");
    await appendEvent(tx, { kind: "SessionEnded", actor: caller.id, t: clock.now(), data: { sessionId: ended.id } });
  });
}

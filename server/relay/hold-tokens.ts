// Hold tokens: a stale refusal's one-time permission to post anyway, if nothing newer arrives.
import { lt } from "drizzle-orm";
import { holdTokens } from "../../db/schema";
import type { Executor } from "../../db/client";
import { hashSecret, newSecret } from "../principals/secrets";
import { HOLD_TOKEN_TTL_MS } from "./limits";

/** Issues a token bound to (principal, room, the latest seq shown); only its hash is stored. */
export async function issueHoldToken(tx: Executor, principalId: string, room: string, seq: number, now: Date): Promise<string> {
  const token = newSecret("hold");
  await tx.insert(holdTokens).values({
    tokenHash: hashSecret(token),
    principalId,
    room,
    seq,
    issuedAt: now,
    expiresAt: new Date(now.getTime() + HOLD_TOKEN_TTL_MS),
  });
  return token;
}

// A presented token is looked up by its hash among the posting facts (quorum_post_message, migration 0026), judged by
// decideFreshness (./freshness.ts) and spent by the post's write (`used_at is null` guards a second spend).

/** Tokens past their expiry can never pass again; the relay sweep deletes them (the journal keeps each refusal). */
export async function purgeExpiredHoldTokens(db: Executor, now: Date): Promise<number> {
  const gone = await db.delete(holdTokens).where(lt(holdTokens.expiresAt, now)).returning({ id: holdTokens.id });
  return gone.length;
}

// Hold tokens: a stale refusal's one-time permission to post anyway, if nothing newer arrives.
import { lt } from "drizzle-orm";
import { holdTokens } from "../../db/schema";
import type { Executor } from "../../db/client";

// The database issues a token with the stale refusal that needs it (quorum_record_gate_rejection: bound to
// the latest unread seq, stored only as its hash), looks a presented one up by its hash among the posting
// facts, judges it (quorum_post_gate_refusal) and spends it with the post's write (`used_at is null` guards a
// second spend).

/** Tokens past their expiry can never pass again; the relay sweep deletes them (the journal keeps each refusal). */
export async function purgeExpiredHoldTokens(db: Executor, now: Date): Promise<number> {
  const gone = await db.delete(holdTokens).where(lt(holdTokens.expiresAt, now)).returning({ id: holdTokens.id });
  return gone.length;
}

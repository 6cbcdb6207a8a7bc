// Hold tokens: a stale refusal's one-time permission to post anyway, if nothing newer arrives.
import { and, eq, isNull, lt } from "drizzle-orm";
import { holdTokens } from "../../db/schema";
import type { Executor } from "../../db/client";
import { hashSecret, newSecret } from "../principals/secrets";
import { HOLD_TOKEN_TTL_MS } from "./limits";

export type HoldToken = typeof holdTokens.$inferSelect;

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

export type TokenCheck = { ok: true; token: HoldToken } | { ok: false; problem: "unknown" | "expired" | "used" };

/** Looks a presented token up for this caller and room; it is spent only when a post commits with it. */
export async function checkHoldToken(tx: Executor, principalId: string, room: string, token: string, now: Date): Promise<TokenCheck> {
  const [row] = await tx
    .select()
    .from(holdTokens)
    .where(and(eq(holdTokens.tokenHash, hashSecret(token)), eq(holdTokens.principalId, principalId), eq(holdTokens.room, room)));
  if (!row) return { ok: false, problem: "unknown" };
  if (row.usedAt) return { ok: false, problem: "used" };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, problem: "expired" };
  return { ok: true, token: row };
}

/** Spends a token; the `used_at is null` guard makes a second spend (a racing retry) change nothing. */
export async function spendHoldToken(tx: Executor, tokenId: string, now: Date): Promise<boolean> {
  const spent = await tx
    .update(holdTokens)
    .set({ usedAt: now })
    .where(and(eq(holdTokens.id, tokenId), isNull(holdTokens.usedAt)))
    .returning({ id: holdTokens.id });
  return spent.length === 1;
}

/** Tokens past their expiry can never pass again; the relay sweep deletes them (the journal keeps each refusal). */
export async function purgeExpiredHoldTokens(db: Executor, now: Date): Promise<number> {
  const gone = await db.delete(holdTokens).where(lt(holdTokens.expiresAt, now)).returning({ id: holdTokens.id });
  return gone.length;
}

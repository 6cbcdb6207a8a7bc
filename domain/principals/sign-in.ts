// One-time sign-in links for humans (15 minutes, single use) that become session cookies.
import { and, eq, gt, isNull } from "drizzle-orm";
import { principals, sessions, signInLinks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { hashSecret, newSecret } from "./secrets";
import type { Principal } from "../principal";

export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export { SESSION_COOKIE } from "./session-cookie";

export async function issueSignInLink(db: Db, human: Principal, clock: Clock): Promise<string> {
  if (human.kind !== "human") throw fail.forbidden("auth", "only humans sign in with a link");
  const token = newSecret("qs");
  await db.insert(signInLinks).values({
    tokenHash: hashSecret(token),
    principalId: human.id,
    expiresAt: new Date(clock.now().getTime() + SIGN_IN_LINK_TTL_MS),
  });
  return token;
}

/** Why a link cannot sign anyone in (any more): used once already, past its 15 minutes, or never issued. */
export type RefusedLink = "used" | "expired" | "unknown";

export async function refusedLinkReason(db: Db, token: string, clock: Clock): Promise<RefusedLink> {
  const [link] = await db
    .select({ usedAt: signInLinks.usedAt, expiresAt: signInLinks.expiresAt })
    .from(signInLinks)
    .where(eq(signInLinks.tokenHash, hashSecret(token)));
  if (!link) return "unknown";
  if (link.usedAt) return "used";
  return link.expiresAt.getTime() <= clock.now().getTime() ? "expired" : "unknown";
}

/** Signs a human in, in the caller's transaction: a session of SESSION_TTL_MS, presence, and HumanSignedIn. */
export async function openSession(tx: Tx, principalId: string, now: Date): Promise<{ sessionToken: string; expiresAt: Date }> {
  const sessionToken = newSecret("qc");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await tx.insert(sessions).values({ principalId, tokenHash: hashSecret(sessionToken), expiresAt });
  await tx.update(principals).set({ lastSeenAt: now }).where(eq(principals.id, principalId));
  await appendEvent(tx, { kind: "HumanSignedIn", actor: principalId, t: now, data: {} });
  return { sessionToken, expiresAt };
}

/** Spends a link and opens a session; a used, expired or unknown link is refused. */
export async function redeemSignInLink(db: Db, token: string, clock: Clock): Promise<{ sessionToken: string; expiresAt: Date }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(signInLinks)
      .set({ usedAt: now })
      .where(and(eq(signInLinks.tokenHash, hashSecret(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
      .returning();
    if (!link) throw fail.unauthorized("this sign-in link is unknown, used or expired: ask for a new one with `quorum human add NAME`");
    return openSession(tx, link.principalId, now);
  });
}

// Random bearer secrets and the hashes we store instead of them.
import { createHash, randomBytes } from "node:crypto";

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/** What the keys and tokens Quorum mints look like in any text: agent keys (qk_), sign-in tokens (qs_), session cookies (qc_), invitations (qi_). */
export const MINTED_SECRET_SHAPE = /\bq[kcsi]_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/;

/** The secrets carry 256 random bits, so a fast unsalted hash is enough to make a leak useless. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

// Random bearer secrets and the hashes we store instead of them.
import { createHash, randomBytes } from "node:crypto";

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/** The secrets carry 256 random bits, so a fast unsalted hash is enough to make a leak useless. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

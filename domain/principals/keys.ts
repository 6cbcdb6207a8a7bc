// Ending an agent's keys: rotation (a new key, every old one revoked in the same transaction) and revocation.
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, principals } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import { principalName } from "./create-principal";
import { hashSecret, newSecret } from "./secrets";
import { toPrincipal, type Principal } from "../principal";

/**
 * The agent a path or a command names, by id or by name, locked for the rest of the transaction so two
 * rotations cannot both leave a live key. Nobody of that id or name, or a human, is a 404.
 */
export async function lockAgent(tx: Tx, idOrName: string): Promise<Principal> {
  const byId = isUuid(idOrName);
  // Neither a uuid nor a possible name (control characters, 4 KiB of text…) names nobody, without a query.
  const [row] =
    byId || principalName.safeParse(idOrName).success
      ? await tx
          .select()
          .from(principals)
          .where(byId ? eq(principals.id, idOrName) : eq(principals.name, idOrName))
          .for("update")
      : [];
  if (row?.kind !== "agent") throw fail.notFound("agent", `no agent ${JSON.stringify(idOrName.slice(0, 64))}`);
  return toPrincipal(row);
}

/** Rotation takes no body: the new key is random. */
export const rotateKeyInput = z.strictObject({});

/** Humans end keys; the CLI acts as no one (`by` = null), like `quorum agent add`. */
function checkMayEndKeys(by: Principal | null): void {
  if (by && by.kind !== "human") throw fail.forbidden("agent", "only humans rotate or revoke an agent's keys");
}

async function revokeLiveKeys(tx: Tx, agentId: string, now: Date): Promise<number> {
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.principalId, agentId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length;
}

export interface RotatedKey {
  agent: Principal;
  /** The new key, shown once: only its hash is stored, and the journal never sees it. */
  key: string;
  /** How many live keys the rotation revoked. */
  revoked: number;
}

/** What a rotation answers over HTTP: the key appears here and nowhere else, ever. */
export interface IssuedKey {
  id: string;
  name: string;
  key: string;
  revoked: number;
}

export function issuedKeyView({ agent, key, revoked }: RotatedKey): IssuedKey {
  return { id: agent.id, name: agent.name, key, revoked };
}

/** Issues the agent a new key and revokes every older one at once: afterwards exactly one key works. */
export async function rotateAgentKey(db: Db, by: Principal | null, idOrName: string, clock: Clock): Promise<RotatedKey> {
  checkMayEndKeys(by);
  return db.transaction(async (tx) => {
    const agent = await lockAgent(tx, idOrName);
    const now = clock.now();
    const revoked = await revokeLiveKeys(tx, agent.id, now);
    const key = newSecret("qk");
    await tx.insert(apiKeys).values({ principalId: agent.id, keyHash: hashSecret(key), createdAt: now });
    await appendEvent(tx, { kind: "AgentKeyRotated", actor: by?.id ?? null, t: now, data: { principalId: agent.id, name: agent.name, revoked } });
    return { agent, key, revoked };
  });
}

/** Revokes every live key of the agent: it is locked out until a human rotates it a new one. */
export async function revokeAgentKeys(db: Db, by: Principal | null, idOrName: string, clock: Clock): Promise<{ agent: Principal; revoked: number }> {
  checkMayEndKeys(by);
  return db.transaction(async (tx) => {
    const agent = await lockAgent(tx, idOrName);
    const now = clock.now();
    const revoked = await revokeLiveKeys(tx, agent.id, now);
    await appendEvent(tx, { kind: "AgentKeysRevoked", actor: by?.id ?? null, t: now, data: { principalId: agent.id, name: agent.name, revoked } });
    return { agent, revoked };
  });
}

// Registers humans and agents; an agent's key is returned once and stored only as a hash.
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import { apiKeys, principals } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { authorityNameProblem, authorityRoleProblem, lookAlikeOf } from "./look-alikes";
import { hashSecret, newSecret } from "./secrets";
import { SYSTEM_PRINCIPAL_NAME, toPrincipal, type Principal } from "../principal";

export const principalName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, "1–40 letters, digits, '_', '.', '-'; starts with a letter or digit");

export const createAgentInput = z.object({
  name: principalName.superRefine((name, ctx) => {
    const problem = authorityNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  role: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .superRefine((role, ctx) => {
      const problem = authorityRoleProblem(role);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});
export type CreateAgentInput = z.infer<typeof createAgentInput>;

/** The advisory-lock key registrations serialise on (reservations use 8451110 and 8451111, the relay 8451120). */
const REGISTRATION_LOCK = 8451130;

/** Inserts a principal and its PrincipalCreated event inside the caller's transaction. */
export async function insertPrincipal(tx: Tx, values: { kind: "human" | "agent"; name: string; role: string | null }, actor: string | null, now: Date) {
  // Registrations take turns, so two look-alikes registered at once cannot both pass the check.
  await tx.execute(sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK})`);
  const names = (await tx.select({ name: principals.name }).from(principals)).map((row) => row.name);
  if (names.includes(values.name)) throw fail.conflict("principal", "name_taken", `the name '${values.name}' is taken`);
  const lookAlike = lookAlikeOf(values.name, names);
  if (lookAlike) throw fail.conflict("principal", "name_taken", `the name '${values.name}' reads as '${lookAlike}', which is taken`, { lookAlike });
  const [row] = await tx
    .insert(principals)
    .values({ ...values, createdAt: now })
    .returning();
  await appendEvent(tx, {
    kind: "PrincipalCreated",
    actor: actor ?? row.id,
    t: now,
    data: { principalId: row.id, kind: row.kind, name: row.name, role: row.role },
  });
  return toPrincipal(row);
}

/** Humans register agents; the CLI registers as no one (`by` = null). */
export async function createAgent(db: Db, by: Principal | null, input: CreateAgentInput, clock: Clock): Promise<Principal & { key: string }> {
  if (by && by.kind !== "human") throw fail.forbidden("agent", "only humans register agents");
  return db.transaction(async (tx) => {
    const agent = await insertPrincipal(tx, { kind: "agent", name: input.name, role: input.role }, by?.id ?? null, clock.now());
    const key = newSecret("qk");
    await tx.insert(apiKeys).values({ principalId: agent.id, keyHash: hashSecret(key) });
    return { ...agent, key };
  });
}

/** Finds or creates a human by name (idempotent, so `quorum start` can run again). */
export async function ensureHuman(db: Db, name: string, clock: Clock): Promise<Principal> {
  const parsed = principalName.safeParse(name);
  if (!parsed.success) throw fail.invalid("principal", `invalid name '${name}': ${parsed.error.issues[0].message}`);
  const found = (row: typeof principals.$inferSelect) => {
    if (row.kind !== "human") throw fail.conflict("principal", "name_taken", `'${name}' is an agent`);
    return toPrincipal(row);
  };
  const [existing] = await db.select().from(principals).where(eq(principals.name, name));
  if (existing?.removedAt) return restoreHuman(db, existing.id, clock);
  if (existing) return found(existing);
  return db.transaction(async (tx) => {
    // Looked up again under the registrations' lock: two hosts starting at once on one database both ensure the same
    // human, and the second must find the first's, not be refused for a taken name.
    await tx.execute(sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK})`);
    const [registered] = await tx.select().from(principals).where(eq(principals.name, name));
    return registered ? found(registered) : insertPrincipal(tx, { kind: "human", name, role: null }, null, clock.now());
  });
}

/** A removed human added again (`quorum human add NAME`): they may sign in once more. */
async function restoreHuman(db: Db, id: string, clock: Clock): Promise<Principal> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx.update(principals).set({ removedAt: null }).where(eq(principals.id, id)).returning();
    await appendEvent(tx, { kind: "HumanRestored", actor: null, t: now, data: { principalId: row.id, name: row.name } });
    return toPrincipal(row);
  });
}

/** Quorum's own principal (created by the migrations): announcements are posted as it. */
export async function getSystemPrincipal(db: Executor): Promise<Principal> {
  const [row] = await db.select().from(principals).where(eq(principals.name, SYSTEM_PRINCIPAL_NAME));
  if (!row) throw new Error("the system principal is missing: run the migrations");
  return toPrincipal(row);
}

// Teammates join from the browser: a human invites one by name and gets a link shown once (its token kept only
// as a hash) that lasts until it expires, is accepted or is revoked. Accepting is a POST from the invitation's
// page, never the GET of the link, so a chat's link preview cannot spend it. A human can also remove another:
// their sessions end and they cannot sign in again until `quorum human add` brings them back.
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { invitations, principals, sessions, signInLinks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { insertPrincipal, principalName } from "./create-principal";
import { hashSecret, newSecret } from "./secrets";
import { openSession } from "./sign-in";

/** How long an invitation lasts unless the inviter says otherwise, and at most. */
export const INVITATION_HOURS = { default: 72, max: 24 * 14 } as const;

export const createInvitationInput = z.strictObject({
  name: principalName.describe("the name the teammate will have (their @mention handle)"),
  expiresInHours: z.number().int().min(1).max(INVITATION_HOURS.max).default(INVITATION_HOURS.default),
});
export const acceptInvitationInput = z.strictObject({ token: z.string().min(1).max(200) });

export interface InvitationView {
  id: string;
  name: string;
  createdByName: string;
  createdAt: string;
  expiresAt: string;
}

function requireHuman(caller: Principal, act: string): void {
  if (caller.kind !== "human") throw fail.forbidden("principal", `only humans ${act}`);
}

/** Makes an invitation for `name`; the link's token is in the answer only, never stored or journalled. */
export async function createInvitation(
  db: Db,
  caller: Principal,
  input: z.input<typeof createInvitationInput>,
  clock: Clock,
): Promise<{ invitation: InvitationView; token: string }> {
  requireHuman(caller, "invite teammates");
  const { name, expiresInHours } = createInvitationInput.parse(input);
  const now = clock.now();
  const token = newSecret("qi");
  const expiresAt = new Date(now.getTime() + expiresInHours * 3_600_000);
  return db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: principals.id }).from(principals).where(eq(principals.name, name));
    if (taken) throw fail.conflict("principal", "name_taken", `the name '${name}' is taken`);
    const [open] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.name, name), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)));
    if (open) throw fail.conflict("principal", "already_invited", `'${name}' has an open invitation: revoke it to make a new one`);
    const [row] = await tx
      .insert(invitations)
      .values({ tokenHash: hashSecret(token), name, createdBy: caller.id, createdAt: now, expiresAt })
      .returning();
    await appendEvent(tx, { kind: "InvitationCreated", actor: caller.id, t: now, data: { invitationId: row.id, name, expiresAt: expiresAt.toISOString() } });
    return { invitation: { id: row.id, name, createdByName: caller.name, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() }, token };
  });
}

/** The invitations still open (not accepted, revoked or expired), oldest first. */
export async function listInvitations(db: Db, caller: Principal, clock: Clock): Promise<{ items: InvitationView[] }> {
  requireHuman(caller, "see invitations");
  const rows = await db
    .select({ row: invitations, createdByName: principals.name })
    .from(invitations)
    .innerJoin(principals, eq(principals.id, invitations.createdBy))
    .where(and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, clock.now())))
    .orderBy(asc(invitations.createdAt));
  return {
    items: rows.map(({ row, createdByName }) => ({ id: row.id, name: row.name, createdByName, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() })),
  };
}

export async function revokeInvitation(db: Db, caller: Principal, id: string, clock: Clock): Promise<void> {
  requireHuman(caller, "revoke invitations");
  const now = clock.now();
  await db.transaction(async (tx) => {
    const [row] = isUuid(id) ? await tx.select().from(invitations).where(eq(invitations.id, id)).for("update") : [];
    if (!row) throw fail.notFound("principal", `no invitation ${id.slice(0, 64)}`);
    if (row.acceptedAt) throw fail.conflict("principal", "invitation_used", `${row.name} already accepted this invitation: remove them instead`);
    if (row.revokedAt) return;
    await tx.update(invitations).set({ revokedAt: now }).where(eq(invitations.id, row.id));
    await appendEvent(tx, { kind: "InvitationRevoked", actor: caller.id, t: now, data: { invitationId: row.id, name: row.name } });
  });
}

/** What an invitation's page shows before anyone accepts: for whom, from whom; null when it cannot be accepted. */
export async function readInvitation(db: Db, token: string, clock: Clock): Promise<{ name: string; invitedBy: string; expiresAt: string } | null> {
  const [row] = await db
    .select({ row: invitations, invitedBy: principals.name })
    .from(invitations)
    .innerJoin(principals, eq(principals.id, invitations.createdBy))
    .where(and(eq(invitations.tokenHash, hashSecret(token)), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, clock.now())));
  return row ? { name: row.row.name, invitedBy: row.invitedBy, expiresAt: row.row.expiresAt.toISOString() } : null;
}

/** Accepts an invitation: the human is created under its name and signed in (a session, as a sign-in link opens). */
export async function acceptInvitation(db: Db, token: string, clock: Clock): Promise<{ human: Principal; sessionToken: string; expiresAt: Date }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.tokenHash, hashSecret(token)), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
      .for("update");
    if (!row) throw fail.unauthorized("this invitation is unknown, used, revoked or expired: ask your teammate for a new one");
    const human = await insertPrincipal(tx, { kind: "human", name: row.name, role: null }, row.createdBy, now);
    await tx.update(invitations).set({ acceptedAt: now, acceptedBy: human.id }).where(eq(invitations.id, row.id));
    await appendEvent(tx, { kind: "InvitationAccepted", actor: human.id, t: now, data: { invitationId: row.id, principalId: human.id, name: human.name } });
    return { human, ...(await openSession(tx, human.id, now)) };
  });
}

/** Removes another human: their sessions and unused sign-in links end at once. The last human, or oneself, cannot be removed. */
export async function removeHuman(db: Db, caller: Principal, id: string, clock: Clock): Promise<void> {
  requireHuman(caller, "remove humans");
  const now = clock.now();
  await db.transaction(async (tx) => {
    const [row] = isUuid(id) ? await tx.select().from(principals).where(eq(principals.id, id)).for("update") : [];
    if (row?.kind !== "human") throw fail.notFound("principal", `no human ${id.slice(0, 64)}`);
    if (row.id === caller.id) throw fail.conflict("principal", "cannot_remove_self", "you cannot remove yourself: another human can");
    if (row.removedAt) return;
    await tx.update(principals).set({ removedAt: now }).where(eq(principals.id, row.id));
    await tx.delete(sessions).where(eq(sessions.principalId, row.id));
    await tx.delete(signInLinks).where(and(eq(signInLinks.principalId, row.id), isNull(signInLinks.usedAt)));
    await appendEvent(tx, { kind: "HumanRemoved", actor: caller.id, t: now, data: { principalId: row.id, name: row.name } });
  });
}

/** The humans who may sign in, by name (the Settings page's People). */
export async function listHumans(db: Db, caller: Principal): Promise<{ items: { id: string; name: string; lastSeenAt: string | null; you: boolean }[] }> {
  requireHuman(caller, "see the humans");
  const rows = await db
    .select({ id: principals.id, name: principals.name, lastSeenAt: principals.lastSeenAt })
    .from(principals)
    .where(and(eq(principals.kind, "human"), isNull(principals.removedAt)))
    .orderBy(asc(principals.name));
  return { items: rows.map((r) => ({ id: r.id, name: r.name, lastSeenAt: r.lastSeenAt?.toISOString() ?? null, you: r.id === caller.id })) };
}

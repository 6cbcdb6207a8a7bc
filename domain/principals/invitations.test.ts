// Teammates invited from the browser: a link shown once that opens a session for a new human of the invited
// name, until it expires, is used or is revoked; and a human removed by another, whose sessions end at once.
import { randomBytes } from "node:crypto";
import { and, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, principals } from "../../db/schema";
import { makeAgent, makeHuman } from "../../test/helpers";
import { refusalOf } from "../../test/fixtures/refusal";
import { manualClock, systemClock } from "../clock";
import { authenticate } from "./authenticate";
import { ensureHuman } from "./create-principal";
import { acceptInvitation, createInvitation, listHumans, listInvitations, readInvitation, removeHuman, revokeInvitation } from "./invitations";
import { SESSION_COOKIE } from "./session-cookie";
import { issueSignInLink, redeemSignInLink } from "./sign-in";

const fresh = () => `mate-${randomBytes(4).toString("hex")}`;
const cookieOf = (token: string) => ({ method: "GET", cookie: `${SESSION_COOKIE}=${token}` });

describe("invitations", () => {
  it("give a link whose token is never stored or journalled; accepting it creates the human, signed in, and spends it", async () => {
    const db = getDb();
    const inviter = await makeHuman();
    const name = fresh();
    const { invitation, token } = await createInvitation(db, inviter, { name }, systemClock);
    expect(token).toMatch(/^qi_[A-Za-z0-9_-]{43}$/);
    expect(new Date(invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect((await listInvitations(db, inviter, systemClock)).items.map((i) => i.name)).toContain(name);
    expect(await readInvitation(db, token, systemClock)).toMatchObject({ name, invitedBy: inviter.name });
    const leaked = await db
      .select({ id: events.id })
      .from(events)
      .where(sql`${events.data}::text like ${`%${token}%`}`);
    expect(leaked).toEqual([]);

    const { human, sessionToken } = await acceptInvitation(db, token, systemClock);
    expect(human).toMatchObject({ kind: "human", name });
    expect(await authenticate(db, cookieOf(sessionToken), systemClock)).toMatchObject({ id: human.id, name });
    expect((await refusalOf(acceptInvitation(db, token, systemClock))).status).toBe(401);
    expect(await readInvitation(db, token, systemClock)).toBeNull();
    expect((await listInvitations(db, inviter, systemClock)).items.map((i) => i.name)).not.toContain(name);
    const [accepted] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "InvitationAccepted"), eq(events.actor, human.id)));
    expect(accepted.data).toMatchObject({ invitationId: invitation.id, name });
  });

  it("are refused to agents, for a name taken or already invited, and cannot be accepted once revoked or expired", async () => {
    const db = getDb();
    const inviter = await makeHuman();
    expect((await refusalOf(createInvitation(db, await makeAgent(), { name: fresh() }, systemClock))).status).toBe(403);
    expect((await refusalOf(createInvitation(db, inviter, { name: inviter.name }, systemClock))).code).toBe("name_taken");
    const name = fresh();
    const first = await createInvitation(db, inviter, { name }, systemClock);
    expect((await refusalOf(createInvitation(db, inviter, { name }, systemClock))).code).toBe("already_invited");
    await revokeInvitation(db, inviter, first.invitation.id, systemClock);
    expect((await refusalOf(acceptInvitation(db, first.token, systemClock))).status).toBe(401);

    const clock = manualClock(new Date());
    const short = await createInvitation(db, inviter, { name, expiresInHours: 1 }, clock);
    clock.advance(3_600_001);
    expect((await refusalOf(acceptInvitation(db, short.token, clock))).status).toBe(401);
    expect(await db.select().from(principals).where(eq(principals.name, name))).toEqual([]);

    const used = await createInvitation(db, inviter, { name: fresh() }, systemClock);
    await acceptInvitation(db, used.token, systemClock);
    expect((await refusalOf(revokeInvitation(db, inviter, used.invitation.id, systemClock))).code).toBe("invitation_used");
  });
});

describe("removing a human", () => {
  it("ends their sessions at once; they cannot remove themselves; `human add` brings them back", async () => {
    const db = getDb();
    const remover = await makeHuman();
    const removed = await makeHuman();
    const session = removed.cookie.split("=")[1];
    expect(await authenticate(db, cookieOf(session), systemClock)).not.toBeNull();
    expect((await refusalOf(removeHuman(db, remover, remover.id, systemClock))).code).toBe("cannot_remove_self");
    expect((await refusalOf(removeHuman(db, await makeAgent(), removed.id, systemClock))).status).toBe(403);

    await removeHuman(db, remover, removed.id, systemClock);
    expect(await authenticate(db, cookieOf(session), systemClock)).toBeNull();
    expect((await listHumans(db, remover)).items.map((h) => h.name)).not.toContain(removed.name);
    const [journalled] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "HumanRemoved"), like(sql`${events.data}->>'name'`, removed.name)));
    expect(journalled.actor).toBe(remover.id);

    const back = await ensureHuman(db, removed.name, systemClock);
    expect(back.id).toBe(removed.id);
    const { sessionToken } = await redeemSignInLink(db, await issueSignInLink(db, back, systemClock), systemClock);
    expect(await authenticate(db, cookieOf(sessionToken), systemClock)).toMatchObject({ id: removed.id });
  });
});

// Teammates from the browser: invitations (made, listed, revoked, looked at and accepted from their page) and the
// humans who may sign in, one of whom another can remove (domain/principals/invitations.ts).
import { z } from "zod";
import { appUrl, hubUrlSetting } from "@/domain/config";
import { crossSiteRefusal } from "@/domain/principals/authenticate";
import {
  acceptInvitation,
  acceptInvitationInput,
  createInvitation,
  createInvitationInput,
  listHumans,
  listInvitations,
  readInvitation,
  removeHuman,
  revokeInvitation,
} from "@/domain/principals/invitations";
import { fail } from "@/domain/errors";
import { secureCookies, sessionCookie } from "@/domain/principals/session-cookie";
import * as v from "../views";
import { created, endpoint, noContent, ok, type RouteSpec, TAGS } from "./route-spec";

const idParams = z.strictObject({ id: z.string().max(200) });

export const INVITATION_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/invitations",
    tag: TAGS.principals,
    summary: "The invitations still open (humans)",
    access: "principal",
    answers: ok(v.page(v.invitation)),
    refusals: [403],
    run: async ({ ctx, caller }) => listInvitations(ctx.db, caller, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/invitations",
    tag: TAGS.principals,
    summary: "Invite a teammate by name: the link is in this answer only (humans)",
    description: "The link lasts `expiresInHours` (72 by default, at most 336) or until it is accepted or revoked. 409 `name_taken`, `already_invited`.",
    access: "principal",
    body: createInvitationInput,
    answers: created(v.madeInvitation),
    refusals: [403, 409],
    otherConflicts: ["name_taken", "already_invited"],
    run: async ({ ctx, caller, body }) => {
      const made = await createInvitation(ctx.db, caller, body, ctx.clock);
      return { invitation: made.invitation, url: `${appUrl()}/invite/${made.token}` };
    },
  }),
  endpoint({
    method: "delete",
    path: "/api/invitations/{id}",
    tag: TAGS.principals,
    summary: "Revoke an open invitation (humans); 409 `invitation_used` once accepted",
    access: "principal",
    params: idParams,
    answers: [noContent("Revoked")],
    refusals: [403, 404, 409],
    otherConflicts: ["invitation_used"],
    run: async ({ ctx, caller, params }) => {
      await revokeInvitation(ctx.db, caller, params.id, ctx.clock);
      return null;
    },
  }),
  endpoint({
    method: "post",
    path: "/api/invitations/look",
    tag: TAGS.principals,
    summary: "What an invitation's page shows: for whom and from whom (public: the token is the secret)",
    access: "public",
    body: acceptInvitationInput,
    answers: ok(v.invitationSeen),
    refusals: [404],
    run: async ({ ctx, body }) => {
      const found = await readInvitation(ctx.db, body.token, ctx.clock);
      if (!found) throw fail.notFound("principal", "this invitation is unknown, used, revoked or expired: ask your teammate for a new one");
      return found;
    },
  }),
  endpoint({
    method: "post",
    path: "/api/invitations/accept",
    tag: TAGS.principals,
    summary: "Accept an invitation: the human is created and signed in (a session cookie)",
    description:
      "Sent from the invitation's page (JSON, this site's Origin): a link preview fetching the link spends nothing. 401 for an unknown, used, revoked or expired invitation.",
    access: "public",
    body: acceptInvitationInput,
    answers: ok(z.looseObject({ name: z.string() })),
    refusals: [401, 403, 409],
    otherConflicts: ["name_taken"],
    run: async ({ ctx, body, request }) => {
      const refusal = crossSiteRefusal({
        method: request.method,
        contentType: request.headers.get("content-type"),
        origin: request.headers.get("origin"),
        host: request.headers.get("host"),
      });
      if (refusal) throw refusal;
      const { human, sessionToken, expiresAt } = await acceptInvitation(ctx.db, body.token, ctx.clock);
      return Response.json(
        { name: human.name },
        { headers: { "Set-Cookie": sessionCookie(sessionToken, expiresAt, secureCookies(hubUrlSetting())), "Cache-Control": "no-store" } },
      );
    },
  }),
  endpoint({
    method: "get",
    path: "/api/humans",
    tag: TAGS.principals,
    summary: "The humans who may sign in (humans)",
    access: "principal",
    answers: ok(v.humanList),
    refusals: [403],
    run: async ({ ctx, caller }) => listHumans(ctx.db, caller),
  }),
  endpoint({
    method: "delete",
    path: "/api/humans/{id}",
    tag: TAGS.principals,
    summary: "Remove a human: their sessions end and they cannot sign in (humans; not yourself)",
    access: "principal",
    params: idParams,
    answers: [noContent("Removed")],
    refusals: [403, 404, 409],
    otherConflicts: ["cannot_remove_self"],
    run: async ({ ctx, caller, params }) => {
      await removeHuman(ctx.db, caller, params.id, ctx.clock);
      return null;
    },
  }),
];

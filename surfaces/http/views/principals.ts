// Who acts on the team: principals, the roster with presence, and the keys an agent is given.
// Kept apart from rooms, which only borrow the roster entry for a room's presence.
import { z } from "zod";
import type { RosterEntry } from "@/domain/principals/list-principals";
import type { Principal } from "@/domain/principal";
import type { InvitationView } from "@/domain/principals/invitations";
import { open, uuid, when, kind, int } from "./base";

export const principal = open({ id: uuid, kind, name: z.string(), role: z.string().nullable() }) satisfies z.ZodType<Principal>;
export const rosterEntry = open({
  id: uuid,
  kind,
  name: z.string(),
  role: z.string().nullable(),
  present: z.boolean(),
  presentForMs: int.describe("how much longer it stays present unless seen again; 0 when away"),
  lastSeenAt: when.nullable(),
  /** Its place in the order principals were created (0 the first): what its colour is chosen by. */
  order: int,
}) satisfies z.ZodType<RosterEntry>;
export const registeredAgent = open({ id: uuid, name: z.string(), role: z.string(), key: z.string() });
export const issuedKey = open({ id: uuid, name: z.string(), key: z.string(), revoked: int });
export const invitation = open({ id: uuid, name: z.string(), createdByName: z.string(), createdAt: when, expiresAt: when }) satisfies z.ZodType<InvitationView>;
export const madeInvitation = open({ invitation, url: z.string().describe("the link to send: shown once, never stored") });
export const invitationSeen = open({ name: z.string(), invitedBy: z.string(), expiresAt: when });
export const humanList = open({ items: z.array(open({ id: uuid, name: z.string(), lastSeenAt: when.nullable(), you: z.boolean() })) });

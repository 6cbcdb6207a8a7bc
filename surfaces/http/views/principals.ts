// Who acts on the team: principals, the roster with presence, and the keys an agent is given.
// Kept apart from rooms, which only borrow the roster entry for a room's presence.
import { z } from "zod";
import type { RosterEntry } from "@/domain/principals/list-principals";
import type { Principal } from "@/domain/principal";
import { open, uuid, when, kind, int } from "./base";

export const principal = open({ id: uuid, kind, name: z.string(), role: z.string().nullable() }) satisfies z.ZodType<Principal>;
export const rosterEntry = open({
  id: uuid,
  kind,
  name: z.string(),
  role: z.string().nullable(),
  present: z.boolean(),
  lastSeenAt: when.nullable(),
  /** Its place in the order principals were created (0 the first): what its colour is chosen by. */
  order: int,
}) satisfies z.ZodType<RosterEntry>;
export const registeredAgent = open({ id: uuid, name: z.string(), role: z.string(), key: z.string() });
export const issuedKey = open({ id: uuid, name: z.string(), key: z.string(), revoked: int });

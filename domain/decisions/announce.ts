// Tells the room "general" about a decision's outcome, as the system principal, after the change committed.
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import { decisions, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { getSystemPrincipal } from "../principals/create-principal";
import { postMessage } from "../rooms/post-message";
import { announcementOf } from "./envelope";

export const ANNOUNCE_ROOM = "general";

/**
 * postMessage opens its own transaction, so an announcement follows the commit of the change it
 * reports. It is claimed first (announced_status := status), so two announcers never post it twice;
 * a failed post hands the claim back and the sweeper retries it. Returns whether it posted.
 */
export async function announceDecision(db: Db, decisionId: string, clock: Clock): Promise<boolean> {
  const [claimed] = await db
    .update(decisions)
    .set({ announcedStatus: sql`${decisions.status}` })
    .where(and(eq(decisions.id, decisionId), ne(decisions.status, "open"), or(isNull(decisions.announcedStatus), ne(decisions.announcedStatus, decisions.status))))
    .returning();
  if (!claimed) return false;
  try {
    const system = await getSystemPrincipal(db);
    const resolver = claimed.resolvedBy ? ((await db.select({ name: principals.name }).from(principals).where(eq(principals.id, claimed.resolvedBy)))[0]?.name ?? null) : null;
    const escalated = claimed.status === "escalated";
    await postMessage(
      db,
      system,
      ANNOUNCE_ROOM,
      {
        body: announcementOf(claimed, resolver),
        performative: escalated ? "REQUEST" : "INFORM",
        payload: {
          decisionId: claimed.id,
          number: claimed.number,
          status: claimed.status,
          outcome: claimed.outcome,
          options: claimed.options,
          defaultOption: claimed.defaultOption,
          escalationDeadline: claimed.escalationDeadline?.toISOString() ?? null,
        },
      },
      clock,
    );
    return true;
  } catch (error) {
    await db
      .update(decisions)
      .set({ announcedStatus: null })
      .where(and(eq(decisions.id, decisionId), eq(decisions.announcedStatus, claimed.status)));
    console.error(`could not announce D-${claimed.number} (${claimed.status}); the sweeper will retry`, error);
    return false;
  }
}

// A human pins a lesson (or words of their own) as a principle, without waiting for a second source.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { lessons, principles } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { requireHuman } from "./guards";
import { requireLessonKey } from "./lesson-key";
import { lockLessonKey } from "./memory-lock";
import { lockPrinciple, toPrincipleViews, type PrincipleRow, type PrincipleView } from "./memory-view";

export const pinPrincipleInput = z.union([z.strictObject({ lessonId: z.uuid() }), z.strictObject({ text: z.string().trim().min(1, "a principle needs its text").max(2000) })]);
export type PinPrincipleInput = z.infer<typeof pinPrincipleInput>;

async function pin(db: Db, caller: Principal, find: (tx: Tx) => Promise<PrincipleRow>, clock: Clock): Promise<PrincipleView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const principle = await find(tx);
    if (principle.pinnedAt) {
      throw fail.conflict("principle", "wrong_status", "this principle is already pinned", { status: "pinned" });
    }
    const [pinned] = await tx.update(principles).set({ pinnedBy: caller.id, pinnedAt: now }).where(eq(principles.id, principle.id)).returning();
    await appendEvent(tx, { kind: "PrinciplePinned", actor: caller.id, t: now, data: { principleId: pinned.id, text: pinned.text, key: pinned.key } });
    return (await toPrincipleViews(tx, [pinned]))[0];
  });
}

/** Pins by lesson or by text: the principle for that key is created if it does not exist yet. */
export async function pinPrinciple(db: Db, caller: Principal, input: PinPrincipleInput, clock: Clock): Promise<PrincipleView> {
  requireHuman(caller, "pin");
  return pin(
    db,
    caller,
    async (tx) => {
      let text: string;
      if ("lessonId" in input) {
        const [lesson] = await tx.select().from(lessons).where(eq(lessons.id, input.lessonId));
        if (!lesson) throw fail.notFound("lesson", `no lesson with id '${input.lessonId}'`);
        text = lesson.text;
      } else {
        text = input.text;
      }
      const key = requireLessonKey(text);
      await lockLessonKey(tx, key);
      await tx.insert(principles).values({ key, text, createdAt: clock.now() }).onConflictDoNothing();
      const [row] = await tx.select().from(principles).where(eq(principles.key, key)).for("update");
      return row;
    },
    clock,
  );
}

export const pinExistingPrincipleInput = z.strictObject({});

/** Pins an existing principle again (for example one that was unpinned). */
export async function pinExistingPrinciple(db: Db, caller: Principal, principleId: string, clock: Clock): Promise<PrincipleView> {
  requireHuman(caller, "pin");
  return pin(db, caller, (tx) => lockPrinciple(tx, principleId), clock);
}

// Everything that decides a principle's fate for one lesson key runs under that key's advisory lock.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";

/** The first half of a two-key advisory lock; the second is the key's hash. */
const MEMORY_LOCK_SPACE = 8451104;

/**
 * Two sources recording the same lesson at once must see each other: without this, each would
 * count one source and neither would promote. Hash collisions only serialise unrelated keys.
 */
export async function lockLessonKey(tx: Executor, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MEMORY_LOCK_SPACE}, hashtext(${key}))`);
}

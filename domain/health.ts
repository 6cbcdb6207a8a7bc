// Liveness: the app answers and its database does too.
import { sql } from "drizzle-orm";
import type { Executor } from "../db/client";

export async function checkHealth(db: Executor): Promise<{ ok: true }> {
  await db.execute(sql`select 1`);
  return { ok: true };
}

import { sql } from "drizzle-orm";
import { handle, json } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET() {
  return handle(async ({ db }) => {
    await db.execute(sql`select 1`);
    return json({ ok: true });
  });
}

import { checkHealth } from "@/server/health";
import { handle, json } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET() {
  return handle(async ({ db }) => json(await checkHealth(db)));
}

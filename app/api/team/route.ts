import { readTeamStatus } from "@/server/flights/team-status";
import { callerOf, handle, json } from "../_lib/http";

export const dynamic = "force-dynamic";

/** How the built-in team thinks (scripted or a model): the Room's note says so. */
export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await readTeamStatus(ctx.db));
  });
}

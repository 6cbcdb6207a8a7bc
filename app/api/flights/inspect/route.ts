import { inspectForFlight, inspectRepositoryQuery } from "@/server/flights/inspect";
import { callerOf, handle, json, readQuery } from "../../_lib/http";

export const dynamic = "force-dynamic";

/** What a flight on this repository would start from (the New flight dialog): 400 with the reason for a path that is no git repository with a commit. */
export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { repo } = readQuery(req, inspectRepositoryQuery);
    return json(await inspectForFlight(caller, repo));
  });
}

// GET /metrics under `next start` (QUORUM_LEAN_API=0): Next hands a route no socket, so no request counts as
// this machine's own here and every scrape needs QUORUM_METRICS_TOKEN or a human's session. `quorum start`
// answers /metrics from surfaces/web/metrics.ts instead, where a scraper on this machine needs neither.
import { metricsTokenSetting } from "@/domain/config";
import { requireMetricsReader } from "@/domain/metrics/access";
import { renderMetrics } from "@/domain/metrics/render";
import { credentialsOf, handle } from "@/surfaces/http/handler";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async ({ db, clock }) => {
    await requireMetricsReader(db, { ...credentialsOf(req), local: false }, metricsTokenSetting(), clock);
    const { body, contentType } = await renderMetrics(db);
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  });
}

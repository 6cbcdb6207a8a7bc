// Runs once when the Next.js server starts (not during the build): tracing when asked for, and the sweepers that drive timeboxes.
export async function register() {
  // NEXT_RUNTIME stays spelled out: Next replaces it at build time, so the Edge bundle leaves the imports below out.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { partitionMonthsAhead, sweepersEnabled, tracingSetting, webhookInwardAllowed } = await import("./domain/config");
  // Traces: under `next start`, Next's own request spans; under `quorum start`, surfaces/web/serve.ts started them already.
  const tracing = tracingSetting();
  if (tracing.enabled || "refused" in tracing) await (await import("./domain/telemetry/tracing")).startTracing("web");
  if (!sweepersEnabled()) return;
  const { serverContext } = await import("./domain/context");
  const { startSweepers, sweepersWith } = await import("./domain/sweepers/schedule");
  const { renderPush } = await import("./surfaces/a2a/push-render");
  const { db, clock } = serverContext();
  startSweepers(db, clock, sweepersWith({ webhooksMayReachInward: webhookInwardAllowed(), partitionMonthsAhead: partitionMonthsAhead(), renderPush }));
}

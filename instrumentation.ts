// Runs once when the Next.js server starts (not during the build): the sweepers that drive timeboxes.
export async function register() {
  // NEXT_RUNTIME stays spelled out: Next replaces it at build time, so the Edge bundle leaves the imports below out.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { partitionMonthsAhead, sweepersEnabled, webhookInwardAllowed } = await import("./server/config");
  if (!sweepersEnabled()) return;
  const { serverContext } = await import("./server/context");
  const { startSweepers, sweepersWith } = await import("./server/sweepers/schedule");
  const { db, clock } = serverContext();
  startSweepers(db, clock, sweepersWith({ webhooksMayReachInward: webhookInwardAllowed(), partitionMonthsAhead: partitionMonthsAhead() }));
}

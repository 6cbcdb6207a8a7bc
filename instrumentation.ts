// Runs once when the Next.js server starts (not during the build): the sweepers that drive timeboxes.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.QUORUM_SWEEPERS === "0") return;
  const { serverContext } = await import("./server/context");
  const { startSweepers } = await import("./server/sweepers/schedule");
  const { db, clock } = serverContext();
  startSweepers(db, clock);
}

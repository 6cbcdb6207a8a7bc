// GET /metrics's body: the hub's figures read afresh (./journal-tally.ts, ./hub-gauges.ts), this process's own
// (streams, announcer, pool waits; the HTTP histogram fills as requests are served), in Prometheus's text format.
import { type Db, poolWaitsOf } from "../../db/client";
import { announcerGaps, announcerHealth } from "../journal/listen";
import { openStreamTotal } from "../journal/stream";
import { readHubGauges } from "./hub-gauges";
import { tallyJournal, type TallyLine } from "./journal-tally";
import { type Metrics, metrics } from "./registry";

type Hub = Metrics["hub"];

/** How long the announcer's last batch's delay stands for its current one. */
const ANNOUNCER_DELAY_HOLD_MS = 10_000;

interface Settable {
  reset(): void;
  inc(labels: Record<string, string>, value: number): void;
}

/** Sets a counter to totals read elsewhere: prom-client only counts up, so each scrape starts it again from them. */
function setCounter(counter: Settable, series: { labels: Record<string, string>; value: number }[]): void {
  counter.reset();
  for (const { labels, value } of series) counter.inc(labels, value);
}

function journalSeries(lines: TallyLine[], hub: Hub): void {
  const of = (kind: TallyLine["kind"]) => lines.filter((line) => line.kind === kind);
  const total = (kind: TallyLine["kind"]) => [{ labels: {}, value: of(kind).reduce((sum, line) => sum + line.count, 0) }];
  const byRoleModel = (kind: TallyLine["kind"]) => of(kind).map((line) => ({ labels: { role: line.role, model: line.model }, value: line.count }));
  setCounter(
    hub.posts,
    of("MessageSent").map((line) => ({ labels: { sender: line.principalKind }, value: line.count })),
  );
  setCounter(
    hub.refusals,
    of("GateRejected").map((line) => ({ labels: { gate: line.detail }, value: line.count })),
  );
  setCounter(hub.claims, total("TaskClaimed"));
  setCounter(hub.leaseExpiries, total("LeaseExpired"));
  setCounter(hub.stalls, total("AgentStalled"));
  setCounter(hub.webhookDeliveries, total("WebhookDelivered"));
  setCounter(hub.webhookFailures, total("WebhookFailed"));
  setCounter(hub.runs, byRoleModel("RunStarted"));
  setCounter(hub.modelCalls, byRoleModel("ModelCalled"));
  setCounter(hub.modelRetries, byRoleModel("ModelRetried"));
  setCounter(
    hub.modelFailures,
    of("ModelFailed").map((line) => ({ labels: { role: line.role, model: line.model, permanent: line.detail }, value: line.count })),
  );
  setCounter(
    hub.tokens,
    of("BudgetDebited").flatMap((line) => [
      { labels: { role: line.role, model: line.model, type: "input" }, value: line.inputTokens },
      { labels: { role: line.role, model: line.model, type: "output" }, value: line.outputTokens },
      { labels: { role: line.role, model: line.model, type: "cached" }, value: line.cachedTokens },
    ]),
  );
  setCounter(
    hub.reportedTokens,
    of("UsageReported").flatMap((line) => [
      { labels: { role: line.role, model: line.model, type: "input" }, value: line.inputTokens },
      { labels: { role: line.role, model: line.model, type: "output" }, value: line.outputTokens },
      { labels: { role: line.role, model: line.model, type: "cached" }, value: line.cachedTokens },
    ]),
  );
  setCounter(
    hub.toolCalls,
    of("ToolReturned").map((line) => ({ labels: { role: line.role, tool: line.detail, outcome: line.failed ? "error" : "ok" }, value: line.count })),
  );
}

function processSeries(db: Db, figures: Metrics["process"]): void {
  figures.sseClients.set(openStreamTotal());
  const announcer = announcerHealth();
  figures.announcerRunning.set(announcer ? 1 : 0);
  // A delay speaks for the events flowing now: after a quiet spell, the last batch's figure is old news.
  const recent = announcer?.lastBatchAt != null && Date.now() - announcer.lastBatchAt < ANNOUNCER_DELAY_HOLD_MS;
  figures.announcerDelay.set(recent && announcer?.lastDelayMs != null ? announcer.lastDelayMs / 1000 : 0);
  figures.announcerSilence.set(announcer?.lastReadAt != null ? Math.max(0, Date.now() - announcer.lastReadAt) / 1000 : 0);
  setCounter(figures.announcerGaps, [{ labels: {}, value: announcerGaps() }]);
  const waits = poolWaitsOf(db);
  setCounter(figures.poolTransactions, [{ labels: {}, value: waits.transactions }]);
  setCounter(figures.poolWaitSeconds, [{ labels: {}, value: waits.waitSeconds }]);
  figures.poolWaiting.set(waits.waiting);
}

/** The exposition, and its Content-Type. */
export async function renderMetrics(db: Db): Promise<{ body: string; contentType: string }> {
  const { registry, hub, process: own } = metrics();
  const [lines, gauges] = await Promise.all([tallyJournal(db), readHubGauges(db)]);
  journalSeries(lines, hub);
  hub.escalationsOpen.set(gauges.escalations_open);
  hub.escalationsOverdue.set(gauges.escalations_overdue);
  hub.tasks.set({ status: "ready" }, gauges.tasks_ready);
  hub.tasks.set({ status: "in_progress" }, gauges.tasks_in_progress);
  hub.tasks.set({ status: "review" }, gauges.tasks_review);
  hub.leasesOverdue.set(gauges.leases_overdue);
  hub.webhookBacklog.set(gauges.webhook_backlog);
  hub.webhookPending.set(gauges.webhook_pending);
  hub.webhookOldest.set(gauges.webhook_oldest_seconds);
  hub.lockWaits.set(gauges.lock_waits);
  hub.oldestTransaction.set(gauges.oldest_transaction_seconds);
  hub.connections.set(gauges.connections);
  hub.maxConnections.set(gauges.max_connections);
  processSeries(db, own);
  return { body: await registry.metrics(), contentType: registry.contentType };
}

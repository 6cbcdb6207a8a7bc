// The process's Prometheus registry (prom-client) and every series /metrics exposes, defined once. Two kinds:
// - hub-wide figures, read from the database at each scrape (./journal-tally.ts counts the journal, ./hub-gauges.ts
//   reads the live tables): the same on every app instance, whichever instance or worker did the work;
// - this process's own figures (HTTP latency by route, open event streams, the announcer, pool waits): each
//   instance reports its own, and Prometheus tells them apart by its `instance` label.
// Held on the process under a registered symbol: Next's bundled copy of domain/ and the lean router's share one.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

const ROLE_MODEL = ["role", "model"] as const;

function build() {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers });
  // Event-loop lag, CPU, memory, GC and handles of this process (process_*, nodejs_*), less the few gauges named
  // like counters (nodejs_active_handles_total…), which promtool's lint refuses and their unsuffixed twins repeat.
  collectDefaultMetrics({ register: registry });
  for (const metric of registry.getMetricsAsArray()) if (metric.name.endsWith("_total") && !(metric instanceof Counter)) registry.removeSingleMetric(metric.name);
  return {
    registry,
    hub: {
      posts: counter("quorum_posts_total", "Messages posted (journal: MessageSent), by the sender's kind.", ["sender"]),
      refusals: counter("quorum_post_refusals_total", "Agents' posts refused by the relay (journal: GateRejected), by gate.", ["gate"]),
      claims: counter("quorum_task_claims_total", "Tasks claimed (journal: TaskClaimed)."),
      leaseExpiries: counter("quorum_lease_expiries_total", "Leases that lapsed and were swept (journal: LeaseExpired)."),
      stalls: counter("quorum_agent_stalls_total", "Lease holders found silent for over half their lease (journal: AgentStalled)."),
      webhookDeliveries: counter("quorum_webhook_deliveries_total", "Webhook attempts answered 2xx (journal: WebhookDelivered)."),
      webhookFailures: counter("quorum_webhook_failures_total", "Webhook attempts that failed (journal: WebhookFailed)."),
      runs: counter("quorum_runs_started_total", "Agent runs started (journal: RunStarted), by the agent's role and the model client.", ROLE_MODEL),
      modelCalls: counter("quorum_model_calls_total", "Model calls begun (journal: ModelCalled), by role and model client.", ROLE_MODEL),
      modelRetries: counter("quorum_model_retries_total", "Transient model failures tried again (journal: ModelRetried), by role and model client.", ROLE_MODEL),
      modelFailures: counter(
        "quorum_model_failures_total",
        "Model calls that failed for good (journal: ModelFailed), by role, model client and whether the failure was permanent.",
        ["role", "model", "permanent"],
      ),
      tokens: counter("quorum_model_tokens_total", "Tokens debited (journal: BudgetDebited), by role, model client and type (input, output, cached: part of input).", [
        "role",
        "model",
        "type",
      ]),
      reportedTokens: counter(
        "quorum_reported_tokens_total",
        "Tokens outside agents reported spending (journal: UsageReported; self-reported, not measured), by role, model and type (input, output, cached: part of input).",
        ["role", "model", "type"],
      ),
      toolCalls: counter("quorum_tool_calls_total", "Tool calls returned (journal: ToolReturned), by role, tool and outcome (ok, error).", ["role", "tool", "outcome"]),
      escalationsOpen: gauge("quorum_escalations_open", "Decisions escalated to humans and not yet resolved."),
      escalationsOverdue: gauge("quorum_escalations_overdue", "Escalations past their deadline that the decisions sweeper has not closed yet (normally 0)."),
      tasks: gauge("quorum_tasks", "Tasks on the board by live status (ready, in_progress, review).", ["status"]),
      leasesOverdue: gauge("quorum_leases_overdue", "Leases past their expiry that the lease sweeper has not swept yet (normally 0)."),
      webhookBacklog: gauge("quorum_webhook_backlog", "Webhook deliveries due now and not yet attempted."),
      webhookPending: gauge("quorum_webhook_pending", "Webhook deliveries pending: due, in flight or waiting to retry."),
      webhookOldest: gauge("quorum_webhook_oldest_pending_seconds", "Age of the oldest pending webhook delivery (0 when none)."),
      lockWaits: gauge("quorum_db_lock_waits", "Backends of Quorum's database waiting on a lock right now."),
      oldestTransaction: gauge("quorum_db_oldest_transaction_seconds", "Age of the oldest open transaction in Quorum's database: live events wait behind it."),
      connections: gauge("quorum_db_connections", "Client connections to the Postgres server, every database and instance together (against quorum_db_max_connections)."),
      maxConnections: gauge("quorum_db_max_connections", "The server's max_connections."),
    },
    process: {
      http: new Histogram<"method" | "route" | "status">({
        name: "quorum_http_request_duration_seconds",
        help: "API requests served by this process's lean router, by method, route pattern and status (event streams left out).",
        labelNames: ["method", "route", "status"],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers,
      }),
      sseClients: gauge("quorum_sse_clients", "Event streams (/api/stream) this process holds open."),
      announcerRunning: gauge("quorum_announcer_running", "1 while this process's announcer reads the journal's tail (it runs while someone subscribes)."),
      announcerDelay: gauge(
        "quorum_announcer_delay_seconds",
        "How old the newest event of the announcer's last batch was when it was announced (0 when it announced nothing in the last 10 s).",
      ),
      announcerSilence: gauge("quorum_announcer_read_age_seconds", "Time since the announcer's last read of the tail answered (0 when it is not running)."),
      announcerGaps: counter("quorum_announcer_gaps_total", "Times the announcer fell behind or a read hung, and its streams re-read the journal."),
      poolTransactions: counter("quorum_db_pool_transactions_total", "Transactions this process began on its pool."),
      poolWaitSeconds: counter("quorum_db_pool_wait_seconds_total", "Time those transactions waited for a connection (BEGIN's round trip included)."),
      poolWaiting: gauge("quorum_db_pool_waiting", "Transactions of this process waiting for a connection right now."),
    },
  };
}

export type Metrics = ReturnType<typeof build>;

const HOLDER = Symbol.for("quorum.metrics");
const processWide = globalThis as { [HOLDER]?: Metrics };

/** The process's registry, made on first use. */
export function metrics(): Metrics {
  processWide[HOLDER] ??= build();
  return processWide[HOLDER];
}

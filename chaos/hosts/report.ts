// What a hosts run reports and how the chaos tally words it. Separate from the run itself so that a caller
// reading a saved report (the chaos run, the e2e spec) need not follow how the hosts were driven.
import { cpus } from "node:os";

export interface Throughput {
  instances: number;
  postsPerSecond: number;
  /** Posts the gates refused (409 stale, 429 rate): answered, not written. */
  postsRefusedPerSecond: number;
  claimsPerSecond: number;
  /** CPU seconds per second (cores busy) of each namespace group over the phase. */
  cores: { postgres: number; apps: number; agents: number };
}

export interface HostsReport {
  skipped?: string;
  hosts?: Record<string, string>;
  throughput?: Throughput[];
  cut?: { app: string; agentHost: string; seconds: number; leaseSeconds: number; postgresRestartSeconds: number };
  // biome-ignore lint/suspicious/noExplicitAny: the control host's check, one JSON object (control.ts `check`)
  check?: any;
  seconds?: number;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Where the throughput stopped growing, from the busiest phase's cores: the machine, Postgres, or neither. */
function ceiling(rows: Throughput[]): { part: string; result: string; ok: boolean }[] {
  const last = rows.at(-1);
  if (!last) return [];
  const cores = cpus().length;
  const busy = last.cores.postgres + last.cores.apps + last.cores.agents;
  const verdict =
    busy >= 0.8 * cores
      ? `the machine's ${cores} cores (${round2(busy)} busy: all namespaces share them), not Postgres (${last.cores.postgres}): more instances here add no capacity`
      : last.cores.postgres >= 0.8
        ? `Postgres (${last.cores.postgres} cores busy)`
        : `neither the cores (${round2(busy)} of ${cores} busy) nor Postgres (${last.cores.postgres}): the clients' concurrency`;
  return [{ part: "  ceiling", result: verdict, ok: true }];
}

export interface TallyLine {
  part: string;
  result: string;
  ok: boolean;
  skipped?: boolean;
}

/** The chaos tally's lines for a hosts run: one summary, then one per property. */
export function hostsTally(report: HostsReport): TallyLine[] {
  if (report.skipped) return [{ part: "hosts", result: `skipped: ${report.skipped}`, ok: true, skipped: true }];
  const c = report.check;
  const cut = report.cut!;
  const streamsMissing = c.sse.reduce((s: number, x: { missing: number }) => s + x.missing, 0);
  const lines: TallyLine[] = [
    {
      part: "  tasks",
      result: `${c.tasks} tasks, ${c.tasks - c.notDone} done, each submitted and accepted once (${c.claims} claims)`,
      ok: c.notDone === 0 && c.tasks > 0,
    },
    { part: "  output", result: `${c.itemsChecked} items read back: ${c.itemProblems} tasks with an item lost, duplicated or out of order`, ok: c.itemProblems === 0 },
    {
      part: "  late writes",
      result: `${c.lateWrites} writes from the cut-off host after its leases lapsed: ${c.lateRefused} refused with stale_fence, ${c.lateAccepted} accepted (${c.staleInTime} other stale_fence refusals)`,
      ok: c.lateWrites > 0 && c.lateAccepted === 0 && c.lateRefused === c.lateWrites,
    },
    {
      part: "  leases swept",
      result: `${c.expiries} leases expired, each swept once (${c.sweptTwice} twice, ${c.unswept} never) with ${report.hosts ? Object.keys(report.hosts).filter((h) => h.startsWith("app")).length : 0} instances sweeping`,
      ok: c.sweptTwice === 0 && c.unswept === 0 && c.expiries > 0,
    },
    {
      part: "  posts",
      result: `${c.acked} acknowledged posts: ${c.lost} lost or changed; ${c.messages} messages in the room, ${c.gaps} seq gaps (${c.postsUnknown} unanswered)`,
      ok: c.lost === 0 && c.gaps === 0,
    },
    {
      part: "  streams",
      result: `${c.sse.length} SSE clients (a human and an agent per instance): ${streamsMissing} events missing of what each viewer may see; ${c.sse.map((s: { reconnects: number }) => s.reconnects).join("/")} reconnects with Last-Event-ID, each to the next instance`,
      ok: streamsMissing === 0,
    },
    ...(report.throughput ?? []).map((t) => ({
      part: `  ${t.instances} instance${t.instances > 1 ? "s" : ""}`,
      result: `${t.postsPerSecond + t.postsRefusedPerSecond} posts/s answered (${t.postsPerSecond} written, ${t.postsRefusedPerSecond} refused by the gates: 30 a minute per agent) and ${t.claimsPerSecond} claims/s at once; cores busy of ${cpus().length}: Postgres ${t.cores.postgres}, apps ${t.cores.apps}, agents ${t.cores.agents}`,
      ok: t.postsPerSecond + t.postsRefusedPerSecond > 0 && t.claimsPerSecond > 0,
    })),
    ...ceiling(report.throughput ?? []),
  ];
  if (c.unexpected) lines.push({ part: "  unexpected", result: `${c.unexpected} answers other than the gates' refusals: ${c.problems.join("; ")}`, ok: false });
  const ok = lines.every((l) => l.ok);
  const summary = {
    part: "hosts",
    result:
      `${cut.app} and ${cut.agentHost} cut off for ${cut.seconds} s (leases of ${cut.leaseSeconds} s), Postgres restarted meanwhile (${cut.postgresRestartSeconds} s); ` +
      `${report.seconds} s in all${ok ? "" : `; problems: ${c.problems.slice(0, 6).join("; ")}`}`,
    ok,
  };
  return [summary, ...lines];
}

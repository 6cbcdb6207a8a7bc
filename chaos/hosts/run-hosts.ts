// Several hosts, one Postgres, in network namespaces: a Postgres host, app hosts running `quorum start`, agent
// hosts working tasks and posting over HTTP, a control host watching every instance's stream. Measures
// posts/s and claims/s with 1…N instances, then cuts one app host and one agent host off the bridge for
// longer than two leases, restarts Postgres while they are away, brings them back, and checks everything.
import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ControlConfig } from "./control";
import { buildNetwork, killGroup, type Network, netnsUnavailable, removeLeftovers, SUBNET } from "./netns";
import { cleanEnv, cpuSeconds, type Proc, sleep, stop, track } from "./proc";
import { type HostsReport, round2, type Throughput } from "./report";
import type { AgentHostConfig, AgentLine } from "./wire";

export { hostsTally, type HostsReport, type TallyLine, type Throughput } from "./report";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PG_PORT = 5432;
const APP_PORT = 3000;
/** The lease sweeper's interval (domain/sweepers/schedule.ts): a lapsed lease is swept within it. */
const SWEEP_MS = 10_000;

export interface HostsOptions {
  apps: number;
  agentHosts: number;
  agentsPerHost: number;
  tasks: number;
  items: number;
  /** Pause between one agent's output items: keeps tasks in progress when the cut comes. */
  itemPaceMs: number;
  leaseSeconds: number;
  /** How long the two hosts stay cut off (at least two leases and a sweep). */
  cutSeconds: number;
  /** Seconds of load per instance count in the throughput phase (0: no throughput phase). */
  benchSeconds: number;
  distDir: string;
  log: (line: string) => void;
}

export async function runHosts(options: HostsOptions): Promise<HostsReport> {
  const { log } = options;
  const unavailable = netnsUnavailable();
  if (unavailable) return { skipped: unavailable };
  const started = Date.now();
  removeLeftovers(log);
  const apps = Array.from({ length: options.apps }, (_, i) => `app${i + 1}`);
  const agentHosts = Array.from({ length: options.agentHosts }, (_, i) => `w${i + 1}`);
  const net: Network = buildNetwork(["pg", "ctl", ...apps, ...agentHosts]);
  const procs: Proc[] = [];
  const spawnIn = (host: string, args: string[], env: Record<string, string> = {}, onLine?: (line: string) => void) => {
    const proc = track(net.spawn(host, [process.execPath, "--import", "tsx", ...args], { cwd: root, env: { ...cleanEnv(), ...env } }), onLine);
    procs.push(proc);
    return proc;
  };
  const file = (name: string, value: unknown) => {
    const path = join(net.scratch, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  try {
    // The embedded Postgres runs as the `postgres` user: it must pass through the scratch folder.
    chmodSync(net.scratch, 0o755);
    const pgHome = join(net.scratch, "pg-home");
    mkdirSync(pgHome, { mode: 0o711 });
    const startPostgres = async (restart = false) => {
      const proc = spawnIn("pg", ["chaos/hosts/pg-host.ts", pgHome, net.hosts.pg.address, SUBNET, String(PG_PORT), ...(restart ? ["restart"] : [])]);
      return { proc, ...(await proc.line<{ ready: boolean; url: string; ownerUrl: string }>((v) => v.ready, 120_000, "the Postgres host")) };
    };
    let pg = await startPostgres();
    log(`postgres on ${net.hosts.pg.address}:${PG_PORT} (embedded, password logins from ${SUBNET})`);

    const instances = apps.map((a) => `http://${net.hosts[a].address}:${APP_PORT}`);
    const appProcs = apps.map((a, i) =>
      spawnIn(a, ["bin/quorum.ts", "start"], {
        DATABASE_URL: pg.url,
        QUORUM_TEAM: "0",
        QUORUM_HOST: net.hosts[a].address,
        PORT: String(APP_PORT),
        QUORUM_URL: instances[i],
        QUORUM_HUMAN: "operator",
        QUORUM_HOME: join(net.scratch, `home-${a}`),
        QUORUM_LEASE_SECONDS: String(options.leaseSeconds),
        NEXT_DIST_DIR: options.distDir,
        NEXT_TELEMETRY_DISABLED: "1",
      }),
    );
    const signIn = await Promise.all(
      appProcs.map(async (p, i) => {
        for (let t = 0; t < 1200; t++) {
          const m = /(http:\/\/\S+\/signin\?token=\S+)/.exec(p.output());
          if (m) return m[1];
          if (p.child.exitCode !== null) break;
          await sleep(100);
        }
        throw new Error(`${apps[i]}: quorum start printed no sign-in link\n${p.output()}`);
      }),
    );
    log(`${apps.length} app instances: ${instances.join(", ")} (quorum start, sweepers on, no team)`);

    const agentNames = agentHosts.flatMap((h) => Array.from({ length: options.agentsPerHost }, (_, i) => `${h}-agent${i + 1}`));
    const base: ControlConfig = { instances, signInUrl: signIn[0], items: options.items, room: "general", requestTimeoutMs: 3_000 };
    const control = async <T>(mode: string, config: Partial<ControlConfig>, ms: number): Promise<T> => {
      const proc = spawnIn("ctl", ["chaos/hosts/control.ts", mode, file(`control-${mode}.json`, { ...base, ...config })]);
      return proc.line<T>(() => true, ms, `control ${mode}`);
    };
    const setup = await control<{ cookie: string; agents: { name: string; key: string }[]; journalHead: number }>("setup", { agents: [...agentNames, "watcher"] }, 120_000);
    base.cookie = setup.cookie;
    const keys = new Map(setup.agents.map((a) => [a.name, a.key]));
    const watcher = { name: "watcher", key: keys.get("watcher")! };

    const agentConfig = (host: string, mode: "work" | "bench", on: string[]): AgentHostConfig => ({
      host,
      mode,
      instances: on,
      agents: agentNames.filter((n) => n.startsWith(`${host}-`)).map((name) => ({ name, key: keys.get(name)! })),
      peers: agentNames,
      room: "general",
      items: options.items,
      itemPaceMs: options.itemPaceMs,
      leaseSeconds: options.leaseSeconds,
      lateMs: options.leaseSeconds * 1000 + SWEEP_MS + 3_000,
      requestTimeoutMs: 2_000,
      benchSeconds: options.benchSeconds,
    });

    // Throughput with 1…N instances: every agent posts and claims as fast as answers come.
    const throughput: Throughput[] = [];
    if (options.benchSeconds > 0) {
      for (let k = 1; k <= apps.length; k++) {
        // Enough tasks that the claimers rarely run dry (if they do, claims/s counts until they did).
        await control("tasks", { tasks: { count: 600, prefix: `bench ${k}` } }, 180_000);
        const cpu = () => ({
          postgres: cpuSeconds(net.hosts.pg.ns),
          apps: apps.reduce((s, a) => s + cpuSeconds(net.hosts[a].ns), 0),
        });
        const before = cpu();
        const t0 = Date.now();
        const benches = agentHosts.map((h) => spawnIn(h, ["chaos/hosts/agent-host.ts", file(`bench-${h}-${k}.json`, agentConfig(h, "bench", instances.slice(0, k)))]));
        const results = await Promise.all(
          benches.map((b) =>
            b.line<{ t: string; posts: number; refused: number; claims: number; seconds: number; claimSeconds: number; cpuSeconds: number }>(
              (v) => v.t === "bench",
              120_000,
              "bench",
            ),
          ),
        );
        const after = cpu();
        const seconds = (Date.now() - t0) / 1000;
        // Each exits once it has drained what is left of the bench tasks.
        await Promise.all(benches.map((b) => b.exited));
        const span = Math.max(...results.map((r) => r.seconds));
        const row: Throughput = {
          instances: k,
          postsPerSecond: Math.round(results.reduce((s, r) => s + r.posts, 0) / span),
          postsRefusedPerSecond: Math.round(results.reduce((s, r) => s + r.refused, 0) / span),
          claimsPerSecond: Math.round(results.reduce((s, r) => s + r.claims, 0) / Math.max(...results.map((r) => r.claimSeconds))),
          cores: {
            postgres: round2((after.postgres - before.postgres) / seconds),
            apps: round2((after.apps - before.apps) / seconds),
            agents: round2(results.reduce((s, r) => s + r.cpuSeconds, 0) / span),
          },
        };
        throughput.push(row);
        log(`throughput with ${k} instance(s): ${row.postsPerSecond} posts/s, ${row.claimsPerSecond} claims/s; cores busy: ${JSON.stringify(row.cores)}`);
      }
    }

    // The run: tasks worked item by item on every agent host, streams watched on every instance.
    await control("tasks", { tasks: { count: options.tasks, prefix: "hosts" } }, 180_000);
    const streamsFile = join(net.scratch, "streams.json");
    const linesFile = join(net.scratch, "agent-lines.jsonl");
    writeFileSync(linesFile, "");
    let open = Number.POSITIVE_INFINITY;
    const watch = spawnIn("ctl", ["chaos/hosts/control.ts", "watch", file("control-watch.json", { ...base, watcher, journalHead: setup.journalHead, streamsFile })], {}, (line) => {
      const m = /^\{"open":(\d+)\}$/.exec(line);
      if (m) open = Number(m[1]);
    });
    await watch.line(() => true, 60_000, "the watch's first report");
    let claims = 0;
    const cutApp = apps.at(-1)!;
    const cutAgents = agentHosts.at(-1)!;
    // The tasks the cut host's agents hold (claimed, not yet submitted or lost) and the item each wrote
    // last. The cut comes just after one of them wrote an item with more to follow, so its next write
    // is sure to go unanswered and, after the lease lapses, to be refused late. Cutting whenever a task
    // was merely held raced the agent's own progress: in CI its submit (or the next claim) sometimes got
    // through first and no late write came (the spec failed with "0 late writes").
    const held = new Map<string, { number: number; k: number; at: number }>();
    const workers = agentHosts.map((h) =>
      spawnIn(h, ["chaos/hosts/agent-host.ts", file(`work-${h}.json`, agentConfig(h, "work", instances))], {}, (line) => {
        if (!line.startsWith("{")) return;
        appendFileSync(linesFile, `${line.slice(0, -1)},"host":"${h}"}\n`);
        if (line.includes('"t":"claim"')) claims++;
        if (h !== cutAgents) return;
        const fact = JSON.parse(line) as AgentLine;
        if (fact.t === "claim") held.set(fact.agent, { number: fact.number, k: 0, at: Date.now() });
        else if (fact.t === "wrote" && held.get(fact.agent)?.number === fact.number) held.set(fact.agent, { number: fact.number, k: fact.k, at: Date.now() });
        else if ((fact.t === "submitted" || fact.t === "stale") && held.get(fact.agent)?.number === fact.number) held.delete(fact.agent);
        // The check names what was unexpected; waiting for that task's end would only hide it behind a timeout.
        else if (fact.t === "unexpected") held.delete(fact.agent);
      }),
    );
    const waitFor = async (ready: () => boolean, ms: number, what: string, everyMs = 200) => {
      const end = Date.now() + ms;
      while (!ready()) {
        if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s`);
        await sleep(everyMs);
      }
    };
    await waitFor(() => claims >= agentNames.length + 2, 60_000, "every agent at work");
    await sleep(1_500);
    const midTask = () => [...held.values()].some((t) => t.k >= 1 && t.k < options.items && Date.now() - t.at < 150);
    await waitFor(midTask, 60_000, `an agent of ${cutAgents} between two output items`, 20);
    const heldAtCut = held.size;
    log(
      `cutting ${cutApp} and ${cutAgents} off the bridge for ${options.cutSeconds} s (lease ${options.leaseSeconds} s; ${heldAtCut} of its agents holding a task, one between two items)`,
    );
    const cutAt = Date.now();
    net.cut(cutApp);
    net.cut(cutAgents);
    await sleep(options.cutSeconds * 1000 - 6_000);
    log("restarting Postgres (immediate shutdown, then start on the same data and address)");
    const restartAt = Date.now();
    killGroup(pg.proc.child, "SIGUSR1");
    await pg.proc.exited;
    pg = await startPostgres(true);
    const postgresRestartSeconds = round2((Date.now() - restartAt) / 1000);
    await sleep(Math.max(0, cutAt + options.cutSeconds * 1000 - Date.now()));
    net.restore(cutApp);
    net.restore(cutAgents);
    const restoredAt = Date.now();
    log(`${cutApp} and ${cutAgents} are back after ${round2((restoredAt - cutAt) / 1000)} s`);
    await waitFor(() => open === 0 && Date.now() - restoredAt > 15_000, 180_000, "every task done");
    // Each task the cut host's agents held ends on their side too (its late write refused, or submitted)
    // before they stop: stopping them first would lose the very write the run is here to see refused.
    await waitFor(() => held.size === 0, 60_000, `${cutAgents}'s agents telling how their ${heldAtCut} held tasks ended`);
    await Promise.all(workers.map((w) => stop(w, 15_000)));
    await stop(watch, 30_000);
    const check = await control<{ check: unknown }>("check", { watcher, journalHead: setup.journalHead, streamsFile, linesFile }, 180_000);
    return {
      hosts: Object.fromEntries(Object.values(net.hosts).map((h) => [h.name, h.address])),
      throughput,
      cut: { app: cutApp, agentHost: cutAgents, seconds: round2((restoredAt - cutAt) / 1000), leaseSeconds: options.leaseSeconds, postgresRestartSeconds },
      check: check.check,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    // quorum start stops its web server, then exits; Postgres last; then whatever is left, with the namespaces.
    await Promise.all(procs.filter((p) => !p.child.spawnargs.some((a) => a.endsWith("pg-host.ts"))).map((p) => stop(p, 15_000)));
    await Promise.all(procs.map((p) => stop(p, 10_000)));
    net.destroy();
  }
}

// The process's environment, read in one place (issue 29, one home per value): every variable the app, the
// CLI and the team worker read is read here, once, when first asked for, and kept, since the environment of
// a running process does not change. The composition roots ask (bin/, surfaces/web/, app/api/_lib and the routes,
// surfaces/mcp/endpoint.ts, instrumentation.ts, next.config.ts, `quorum worker`) and hand the values on as arguments.
// Two modules below them ask too: domain/tasks/lease.ts for the default lease, which every claim path and
// task view computes with, and agents/tools/run-tests.ts for the environment a test run inherits. db/ reads
// its own connection settings (it imports nothing of ours). The model's variables are not named here:
// agents/model/from-env.ts, the only code that knows a vendor, picks them (QUORUM_MODEL, QUORUM_MODEL_<ROLE>, …) out
// of `quorumVariables()`.
// docs/OPERATING.md's Configuration table lists every variable; test/config-home.test.ts fails when process.env
// appears anywhere else in production code.
import { join } from "node:path";
import { quorumHome } from "../db/home";
import { priceConfig, type PriceConfig } from "./bill/prices";

export type Environment = Readonly<Record<string, string | undefined>>;

/** A value of the environment: read from process.env on first use and kept (a reader that throws is asked again next time). */
export interface Setting<T> {
  (): T;
  /** The same value read from another environment: for tests, and for what a child process will see. */
  from(env: Environment): T;
}

const forgetters: (() => void)[] = [];

/** Forgets every value read so far: the next ask reads process.env again (a test file that sets an environment of its own). */
export function forgetSettings(): void {
  for (const forget of forgetters) forget();
}

function setting<T>(read: (env: Environment) => T): Setting<T> {
  let held: { value: T } | undefined;
  forgetters.push(() => {
    held = undefined;
  });
  const get = () => {
    if (!held) held = { value: read(process.env) };
    return held.value;
  };
  return Object.assign(get, { from: read });
}

// ——— The web server and the hub's address

/** PORT: the web port. */
export const webPort = setting((env) => env.PORT ?? "3000");

/** QUORUM_HOST: the address the web server binds. */
export const webHost = setting((env) => env.QUORUM_HOST ?? "127.0.0.1");

/** QUORUM_URL as set, else undefined: the hub's public address, which makes cookies Secure (https) and is MCP's own origin. */
export const hubUrlSetting = setting((env) => env.QUORUM_URL);

/** The address printed in sign-in links and handed to clients: QUORUM_URL, else http://127.0.0.1:$PORT. */
export const appUrl = setting((env) => hubUrlSetting.from(env) ?? `http://127.0.0.1:${webPort.from(env)}`);

/** QUORUM_LEAN_API=0: `quorum start` runs plain `next start` instead of surfaces/web/serve.ts. */
export const leanApi = setting((env) => env.QUORUM_LEAN_API !== "0");

/** NEXT_DIST_DIR: where the web app's build lives (a second build, a helper's or a benchmark's, beside the main one). */
export const nextDistDir = setting((env) => env.NEXT_DIST_DIR ?? ".next");

/** NODE_ENV=development: `next dev`, whose React tooling needs 'unsafe-eval' (domain/security-headers.ts). */
export const developmentBuild = setting((env) => env.NODE_ENV === "development");

/** As `next start` does, before Next (and React) load: a process that names no NODE_ENV runs production code paths. */
export function defaultToProductionBuild(): void {
  if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: "production" });
}

/** QUORUM_WEBHOOK_ALLOW_PRIVATE=1: webhooks may be delivered to loopback and private addresses (domain/webhooks/outside-only.ts). */
export const webhookInwardAllowed = setting((env) => env.QUORUM_WEBHOOK_ALLOW_PRIVATE === "1");

/** QUORUM_SWEEPERS=0: this app instance runs no sweepers (others may). */
export const sweepersEnabled = setting((env) => env.QUORUM_SWEEPERS !== "0");

// ——— `quorum start` and the CLI

/** DATABASE_URL as set, else undefined: then the CLI finds or starts the embedded Postgres. */
export const databaseUrlSetting = setting((env) => env.DATABASE_URL);

/** QUORUM_HUMAN as set, else undefined: then the local human is named after the OS user. */
export const localHumanSetting = setting((env) => env.QUORUM_HUMAN);

/** QUORUM_TEAM=0: `quorum start` runs no team worker and launches no demo flight. */
export const teamEnabled = setting((env) => env.QUORUM_TEAM !== "0");

/** QUORUM_FLIGHT=now: `quorum start` launches the first flight at once instead of at the first sign-in. */
export const flightAtOnce = setting((env) => env.QUORUM_FLIGHT === "now");

/** QUORUM_FLIGHT=off: `quorum start` launches no demo flight (the team still takes the flights you start). */
export const demoFlightEnabled = setting((env) => env.QUORUM_FLIGHT !== "off");

/** QUORUM_CODERS: how many coder principals the team has (coder, coder-2, …), 1–8; 2 by default. */
export const DEFAULT_CODERS = 2;
export const coderCount = setting((env) => {
  const raw = env.QUORUM_CODERS?.trim();
  if (!raw) return DEFAULT_CODERS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`QUORUM_CODERS must be a whole number from 1 to 8, not '${raw}'`);
  return n;
});

/**
 * QUORUM_RUN_MAX_MINUTES: how long one drive of a built-in run may take on the wall clock before it stops at its
 * next turn boundary (its task stays with it, to be resumed); 1 to 1,440, none when unset.
 */
export const runMaxMinutes = setting((env): number | undefined => {
  const raw = env.QUORUM_RUN_MAX_MINUTES?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1440) throw new Error(`QUORUM_RUN_MAX_MINUTES must be a number of minutes above 0 and at most 1440, not '${raw}'`);
  return n;
});

/** QUORUM_KEY as set: the agent key `quorum mcp` relays with and `quorum hook install` stores. */
export const agentKeySetting = setting((env) => env.QUORUM_KEY);

/** The folder a command was typed in: `npm run` moves to Quorum's folder, and INIT_CWD is where it was typed. */
export const typedIn = setting((env) => env.INIT_CWD ?? process.cwd());

/**
 * QUORUM_UNSANDBOXED=1: where bubblewrap cannot start, the team runs a workpiece's commands without its sandbox
 * (never by default: without the sandbox and without this, the team refuses to run them).
 */
export const unsandboxedAllowed = setting((env) => env.QUORUM_UNSANDBOXED === "1");

/**
 * QUORUM_SANDBOX_UID: the host uid (and gid) a workpiece's commands run as when the hub runs as root; 65534
 * (nobody) by default. A hub that is not root runs them as itself: it cannot take another uid.
 */
export const sandboxUid = setting((env) => {
  const raw = env.QUORUM_SANDBOX_UID?.trim();
  if (!raw) return 65534;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 4_294_967_294) throw new Error(`QUORUM_SANDBOX_UID must be a uid above 0, not '${raw}'`);
  return n;
});

/**
 * QUORUM_SANDBOX_MEMORY_MB: the memory one sandboxed command may use, its tmpfs files included (the worktree's
 * copy, /tmp, /dev/shm are sized from it); 4096 by default, 64 to 1,048,576.
 */
export const sandboxMemoryBytes = setting((env) => {
  const raw = env.QUORUM_SANDBOX_MEMORY_MB?.trim();
  if (!raw) return 4096 * 1024 ** 2;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 64 || mb > 1_048_576) throw new Error(`QUORUM_SANDBOX_MEMORY_MB must be a whole number of MiB from 64 to 1048576, not '${raw}'`);
  return mb * 1024 ** 2;
});

/**
 * QUORUM_SANDBOX_READ: more host folders a workpiece's commands may read (colon-separated absolute paths), for
 * a toolchain outside /usr and /opt (a rustup under /root, a pyenv): the sandbox shows nothing else of the host.
 */
export const sandboxReadPaths = setting((env) =>
  (env.QUORUM_SANDBOX_READ ?? "")
    .split(":")
    .map((path) => path.trim())
    .filter((path) => path.startsWith("/")),
);

/**
 * QUORUM_SETUP_HOSTS: hosts (`name` or `name:port`, comma-separated) a flight's setup may reach through the
 * registry proxy besides the registries the machine's package managers are configured with.
 */
export const setupExtraHosts = setting((env) =>
  (env.QUORUM_SETUP_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean),
);

/** QUORUM_SETUP_MINUTES: how long a flight's setup may run before it is stopped and the flight goes red (20). */
export const setupMinutes = setting((env) => {
  const minutes = Number(env.QUORUM_SETUP_MINUTES ?? "20");
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 20;
});

/** Quorum's own folder (its database's data and passwords, its flight clones): never shown to a workpiece's commands. */
export const quorumHomePath = setting(() => quorumHome());

/**
 * Where `quorum experiment` saves its tables and the Lab's Experiments page reads them: QUORUM_EXPERIMENTS_DIR,
 * else `experiments` in QUORUM_HOME, so a hub lists only the runs made on it (the tables in the repository's
 * bench/results/experiments/ are the project's own notebook, never shown as this hub's).
 */
export const experimentsFolder = setting((env) => env.QUORUM_EXPERIMENTS_DIR || join(quorumHome(), "experiments"));

/** What a child process inherits: this process's environment as it is now (a copy, for the caller to add to or prune). */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}

const decodeURIComponentSafely = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** Whether a variable's name says its value is a credential (a vendor's API key, QUORUM_KEY, GITHUB_TOKEN, PGPASSWORD, a session cookie, OTEL_EXPORTER_OTLP_HEADERS with its Basic credentials, …). */
export function namesASecret(name: string): boolean {
  return /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION|AUTHORIZATION|HEADERS/i.test(name);
}

/**
 * The credentials this process was given, by the variable that holds them: each variable whose name says it
 * is one, and the password inside any variable holding a URL (DATABASE_URL). domain/hub-secrets.ts keeps them
 * out of what the team's tools return.
 */
export const secretsInEnvironment = setting((env): { name: string; value: string }[] => {
  const found: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (namesASecret(name)) found.push({ name, value });
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && URL.canParse(value)) {
      const { password } = new URL(value);
      if (password) found.push({ name: `${name} password`, value: decodeURIComponentSafely(password) });
    }
  }
  return found;
});

// ——— The rules' settings

/** The default task lease when no variable sets one. */
export const DEFAULT_LEASE_MINUTES = 30;

/**
 * The default lease in seconds: QUORUM_LEASE_SECONDS (5 to 86,400), for tests that cut hosts off for longer
 * than two leases and must not wait minutes (chaos/hosts), wins over QUORUM_LEASE_MINUTES (1 to 1,440); a
 * value out of range is ignored. A task's own lease length comes before either (domain/tasks/lease.ts).
 */
export const defaultLeaseSeconds = setting((env) => {
  const seconds = Number(env.QUORUM_LEASE_SECONDS);
  if (Number.isInteger(seconds) && seconds >= 5 && seconds <= 86_400) return seconds;
  const minutes = Number(env.QUORUM_LEASE_MINUTES);
  return (Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440 ? minutes : DEFAULT_LEASE_MINUTES) * 60;
});

/** QUORUM_PRICES and QUORUM_CURRENCY: the bill's price map (a malformed one is reported, never fatal). */
export const priceSettings = setting((env): PriceConfig => priceConfig(env));

// ——— The team worker

/** The built-in roles' pause after each visible action when QUORUM_PACE_MS names none: the scripted demo flight takes about 30 s, each tool call and post landing on its own. */
export const DEFAULT_PACE_MS = 4_000;

/** QUORUM_PACE_MS: the pause after each visible action of a built-in role (0 for none; tests set 0). */
export const paceMs = setting((env) => {
  const raw = env.QUORUM_PACE_MS?.trim();
  if (!raw) return DEFAULT_PACE_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw new Error(`QUORUM_PACE_MS must be a whole number of milliseconds from 0 to 60000, not '${raw}'`);
  return ms;
});

/** QUORUM_TEST_COMMAND (space-separated argv), else undefined: then the workpiece's own default runs (agents/team/worker.ts). */
export const testCommandSetting = setting((env): string[] | undefined => {
  const words = env.QUORUM_TEST_COMMAND?.trim().split(/\s+/).filter(Boolean);
  return words?.length ? words : undefined;
});

/** QUORUM_REVIEW_DEADLINE_SECONDS in milliseconds, else undefined: then the roles' default holds (agents/team/roles/deadlines.ts). */
export const reviewDeadlineSetting = setting((env) => (env.QUORUM_REVIEW_DEADLINE_SECONDS === undefined ? undefined : Number(env.QUORUM_REVIEW_DEADLINE_SECONDS) * 1000));

/** Quorum's own variables (QUORUM_*), for the model seam: agents/model/from-env.ts alone knows which of them configure a model. */
export const quorumVariables = setting((env): Environment => Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith("QUORUM_"))));

// ——— Operating Quorum: metrics and traces (docs/OPERATING.md, "Operating Quorum")

/** QUORUM_METRICS_TOKEN as set, else undefined: the bearer token a scraper off this machine reads `/metrics` with (domain/metrics/access.ts). */
export const metricsTokenSetting = setting((env) => env.QUORUM_METRICS_TOKEN?.trim() || undefined);

/** The OTLP protocols Quorum exports traces with: the two HTTP ones (domain/telemetry/tracing.ts says why not gRPC). */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** What tracing was asked for: off, on with a protocol, or a protocol Quorum does not speak (said once at start). */
export type TracingSetting = { enabled: false } | { enabled: true; protocol: OtlpProtocol } | { enabled: false; refused: string };

/**
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) turns trace export on; OTEL_SDK_DISABLED=true
 * or OTEL_TRACES_EXPORTER=none turn it off again. The protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else
 * OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf (the specification's default). The SDK reads the rest of its
 * standard variables itself (the endpoints, OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES…).
 */
export const tracingSetting = setting((env): TracingSetting => {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true" || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return { enabled: false };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || "http/protobuf").toLowerCase();
  if (protocol === "http/protobuf" || protocol === "http/json") return { enabled: true, protocol };
  return { enabled: false, refused: protocol };
});

// ——— Retention: the journal's monthly partitions (DESIGN §4)

/**
 * QUORUM_PARTITION_MONTHS_AHEAD (0–6, default 1): how many months past the current one the partitions sweeper keeps made. One is
 * enough (the sweeper runs every 10 minutes), and every partition costs each read of the whole journal a little (bench/results/2026-12-03-retention.md).
 */
export const DEFAULT_PARTITION_MONTHS_AHEAD = 1;
export const partitionMonthsAhead = setting((env) => {
  const raw = env.QUORUM_PARTITION_MONTHS_AHEAD?.trim();
  if (!raw) return DEFAULT_PARTITION_MONTHS_AHEAD;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 6) throw new Error(`QUORUM_PARTITION_MONTHS_AHEAD must be a whole number of months from 0 to 6, not '${raw}'`);
  return n;
});

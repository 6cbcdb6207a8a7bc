// The sandbox every command the team runs on a workpiece goes through (run_tests today, any shell tool
// tomorrow): Debian's bubblewrap, with its own network (no loopback of the host: neither Quorum's API nor its
// Postgres), its own pids, IPC and hostname. DESIGN §20 has the threat model; in short:
// - It sees an allowlist of the system (toolchains, libraries, a few files of /etc), read-only, not `/` minus
//   a denylist: Quorum's home, /root, /home, /run, other flights are simply not there.
// - It runs as an unprivileged host uid. bwrap's `--uid` only renames the user inside a user namespace, so a
//   hub running as root starts bwrap privileged (no user namespace) and the command drops to QUORUM_SANDBOX_UID
//   with setpriv, without capabilities and with no_new_privs; a hub that is not root runs it as itself.
// - It works on a throwaway copy of the worktree, in a tmpfs of bounded size at /workspace: what a test writes
//   (a rewritten `.git`, a planted config, a build) is gone when the command ends, and no host tool ever reads
//   it. Only the file tools, which refuse `.git` (./paths.ts), change the worktree itself. The path is the same
//   for every worktree, so a flight's environment (its dependencies, built once by its setup) fits all of them.
// - Limits: a pids and a memory cgroup (./command-limits.ts; tmpfs pages count as memory), sized tmpfs, and
//   prlimit's CPU time, address space and file size. The wall clock is the tool's timeout.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { inheritedEnvironment, namesASecret, sandboxReadPaths, sandboxUid, unsandboxedAllowed } from "../../domain/config";
import type { GitPlace } from "../../domain/host-git";
import { commandLimitsAvailable, MAX_PROCESSES, maxMemoryBytes, newCommandLimits } from "./command-limits";

export const BWRAP = "/usr/bin/bwrap";
export const SETPRIV = "/usr/bin/setpriv";

/** Per command: 10 minutes of CPU, 8 GiB of address space (V8 reserves much it never uses), 1 GiB per file. */
export const LIMITS = { cpuSeconds: 600, addressSpaceBytes: 8 * 1024 ** 3, fileBytes: 1024 ** 3 } as const;

/** The writable places inside, each a tmpfs sized from the command's memory (its pages count against that too). */
function space(): { worktreeBytes: number; tmpBytes: number; shmBytes: number } {
  const memory = maxMemoryBytes();
  return { worktreeBytes: memory / 2, tmpBytes: memory / 4, shmBytes: memory / 16 };
}

/** Where the worktree as the hub holds it is bound, read-only, for the command to copy from. */
const SOURCE = "/.quorum-source";

/** Where the command sees its copy of the worktree (any worktree: the same path for all, see above). */
export const WORKSPACE = "/workspace";

/** Setup only: where the hub's registry proxy's socket shows, and the folder the environment is copied out to. */
const PROXY_SOCKET = "/.quorum-proxy";
const OUTPUT = "/.quorum-out";

/** The places inside a setup's script names (agents/team/environment.ts writes it). */
export const SETUP_PATHS = { proxySocket: PROXY_SOCKET, output: OUTPUT, source: SOURCE } as const;

/** Where package managers that keep dependencies outside the project are told to (inside the environment). */
const ENV_HOME = `${WORKSPACE}/.quorum-env`;

/** Folders of an environment's entry that stay writable (a tmpfs over them): caches test runners write. */
const WRITABLE_INSIDE: Record<string, string[]> = { node_modules: [".cache", ".vite"] };

/** The system a command sees, read-only: where toolchains, libraries and their data live. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];

/** Of /etc, what programs read to run (users' names, the dynamic linker, certificates, locales, toolchains' settings). */
const ETC_NAMES = [
  "passwd",
  "group",
  "hosts",
  "hostname",
  "nsswitch.conf",
  "host.conf",
  "gai.conf",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "timezone",
  "alternatives",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "mime.types",
  "magic",
  "magic.mime",
  "os-release",
  "debian_version",
  "lsb-release",
  "protocols",
  "services",
  "networks",
  "locale.alias",
  "gitconfig",
  "npmrc",
  "pip.conf",
  "xdg",
  "fonts",
  "perl",
  "maven",
];
const ETC_PREFIXES = ["java-", "python3"];

export interface SandboxedCommand {
  program: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Whether it runs inside the sandbox (false only with QUORUM_UNSANDBOXED=1 where bubblewrap cannot start). */
  sandboxed: boolean;
  /** Whether the command reached its memory limit (the kernel killed it for that); ask before release(). */
  outOfMemory(): boolean;
  /** Call once the command has exited: frees what its limits took (its cgroups). */
  release(): void;
}

/** Thrown where the sandbox cannot start and QUORUM_UNSANDBOXED=1 does not allow running without it. */
export class NoSandbox extends Error {}

/** Thrown when the command's program is nowhere on PATH (inside, it would be an exit code, not a failure to start). */
export class NoSuchProgram extends Error {}

type Availability = { available: true } | { available: false; reason: string };
let probed: Availability | undefined;

/** Whether the hub runs as root: then bwrap starts privileged (no user namespace) and the command drops to QUORUM_SANDBOX_UID. */
function privileged(): boolean {
  return process.getuid?.() === 0;
}

/** Whether bubblewrap can start here (asked once: it does not change while the process runs). */
export function sandboxAvailability(): Availability {
  probed ??= probeSandbox();
  return probed;
}

function probeSandbox(): Availability {
  if (!existsSync(BWRAP)) return { available: false, reason: `${BWRAP} is not installed (apt-get install bubblewrap)` };
  if (privileged() && !existsSync(SETPRIV))
    return { available: false, reason: `${SETPRIV} is not installed (apt-get install util-linux): a hub running as root needs it to drop to an unprivileged user` };
  const trial = spawnSync(BWRAP, [...systemArgs(), ...unprivileged(), "--", "true"], { encoding: "utf8", timeout: 10_000 });
  if (trial.status === 0) return { available: true };
  return { available: false, reason: `bubblewrap cannot start here: ${(trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().slice(0, 300)}` };
}

/** What the team says at start: sandboxed, running unsandboxed as allowed, or refusing to run agent code. */
export function sandboxNotice(): { ok: boolean; text: string } | null {
  const availability = sandboxAvailability();
  if (availability.available) return null;
  if (unsandboxedAllowed()) return { ok: true, text: `Agent code runs WITHOUT a sandbox (QUORUM_UNSANDBOXED=1): ${availability.reason}.` };
  return { ok: false, text: `The team will not run agent code (tests): ${availability.reason}. Install bubblewrap, or set QUORUM_UNSANDBOXED=1 to run it unsandboxed.` };
}

/** Said in the worker's log (not the room: most machines of a non-root user delegate no cgroup) when a limit is missing. */
export function processLimitNotice(): string | null {
  if (!sandboxAvailability().available) return null;
  const { processes, memory } = commandLimitsAvailable();
  const missing = [
    processes ? null : `its processes (${MAX_PROCESSES} where a pids cgroup can be made)`,
    memory ? null : `its memory (${maxMemoryBytes() / 1024 ** 2} MiB where a memory cgroup can be made)`,
  ].filter(Boolean);
  if (missing.length === 0) return null;
  return `Agent code runs sandboxed but without a limit on ${missing.join(" or ")}: this machine gives Quorum no writable cgroup for it; its tmpfs sizes and prlimit still hold.`;
}

export interface SandboxOptions {
  /** The worktree's git as the hub knows it: its git dir is bound read-only (a suite may ask git; nothing of git's changes). */
  git?: GitPlace;
  /** A flight's environment (agents/team/environment.ts): each of its entries shows in /workspace, read-only. */
  environment?: string;
  /**
   * The setup's own run: the hub's registry proxy (a Unix socket), the folder its results are copied out to, and
   * what its environment adds (the proxy's address, the hub's registries).
   */
  setup?: { proxySocket: string; output: string; env: Record<string, string> };
}

/** Names an environment's entry may have: plain names, never `.git` (the hub reads no other name it wrote). */
const ENTRY_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The entries of an environment the sandbox shows: real folders and files only. The setup wrote this folder,
 * so a link is never followed (bwrap would resolve it on the host) and an odd name is never used.
 */
export function environmentEntries(environment: string | undefined): string[] {
  if (!environment || !existsSync(environment)) return [];
  return readdirSync(environment)
    .filter((name) => ENTRY_NAME.test(name) && name !== "." && name !== ".." && name.toLowerCase() !== ".git")
    .filter((name) => {
      const stat = lstatSync(join(environment, name));
      return stat.isDirectory() || stat.isFile();
    })
    .slice(0, 64);
}

/**
 * `argv` as it runs in the sandbox on a copy of `root` (a worktree) at /workspace; throws NoSandbox where it
 * may not run.
 */
export function sandboxed(argv: readonly string[], root: string, options: SandboxOptions = {}): SandboxedCommand {
  const availability = sandboxAvailability();
  if (!availability.available) {
    if (!unsandboxedAllowed()) throw new NoSandbox(`${availability.reason}; set QUORUM_UNSANDBOXED=1 to run agent code without a sandbox`);
    if (options.setup) throw new NoSandbox(`${availability.reason}: a flight's setup runs only in the sandbox, where its network is the registry proxy`);
    return { program: argv[0], args: argv.slice(1), env: unsandboxedEnvironment(), sandboxed: false, outOfMemory: () => false, release: () => {} };
  }
  const worktree = resolve(root);
  const entries = environmentEntries(options.environment);
  const env = { ...workpieceEnvironment(options.setup ? null : entries), ...options.setup?.env };
  if (!programExists(argv[0], worktree, env.PATH, options.environment)) throw new NoSuchProgram(`spawn ${argv[0]} ENOENT: no such program on PATH`);
  const args = [...systemArgs(), ...worktreeArgs(worktree, options, entries), "--chdir", WORKSPACE];
  for (const [name, value] of Object.entries(env)) args.push("--setenv", name, value);
  const limits = [`--cpu=${LIMITS.cpuSeconds}`, `--as=${LIMITS.addressSpaceBytes}`, `--fsize=${LIMITS.fileBytes}`];
  const inside = [...args, "--", "/bin/sh", "-c", copyThenRun(entries), "sh", ...unprivileged(), "prlimit", ...limits, "--", ...argv];
  // bwrap clears the environment itself (--clearenv) and sets only what the command may see.
  const outer = { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv;
  const groups = newCommandLimits();
  if (!groups) return { program: BWRAP, args: inside, env: outer, sandboxed: true, outOfMemory: () => false, release: () => {} };
  // A shell outside the sandbox enters the groups, then becomes bubblewrap: everything inside is counted.
  const enter = groups.procs.map((_, i) => `echo $$ > "$${i + 1}"`).join(" && ");
  const script = `${enter} && shift ${groups.procs.length} && exec "$@"`;
  return {
    program: "/bin/sh",
    args: ["-c", script, "sh", ...groups.procs, BWRAP, ...inside],
    env: outer,
    sandboxed: true,
    outOfMemory: groups.outOfMemory,
    release: groups.release,
  };
}

/**
 * The first step inside: the worktree copied into its tmpfs (leaving out its .git, bound in place read-only,
 * and the environment's entries, bound over it), then the command. A hub running as root copies as root, so
 * a worktree folder only root can read still copies, and hands the copy to the sandbox's user before dropping.
 */
function copyThenRun(entries: readonly string[]): string {
  const owner = privileged() ? String(sandboxUid()) : null;
  const take = owner ? `--numeric-owner --owner=${owner} --group=${owner}` : "";
  // Entry names passed checks (ENTRY_NAME): quoting them for the shell cannot be escaped.
  const skip = [".git", ...entries].map((name) => `! -name '${name}'`).join(" ");
  const copy = `(cd ${SOURCE} && find . -mindepth 1 -maxdepth 1 ${skip} -print0 | tar --null -T - ${take} -cf -) | tar ${owner ? "--numeric-owner" : ""} -xf -`;
  const handOver = owner ? ` && chown ${owner}:${owner} .` : "";
  return `{ ${copy}${handOver}; } || { echo "quorum: could not copy the worktree into the sandbox" >&2; exit 125; }; exec "$@"`;
}

/** The drop to an unprivileged user, for a hub running as root (bwrap itself then runs without a user namespace). */
function unprivileged(): string[] {
  if (!privileged()) return [];
  const uid = String(sandboxUid());
  return [SETPRIV, `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all"];
}

let system: string[] | undefined;
/** The namespaces and the read-only system: the same for every command and for the probe, so made once. */
function systemArgs(): string[] {
  system ??= makeSystemArgs();
  return system;
}

function makeSystemArgs(): string[] {
  const namespaces = privileged()
    ? ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    : ["--unshare-all", "--uid", "65534", "--gid", "65534"];
  const args = [...namespaces, "--die-with-parent", "--new-session", "--clearenv"];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    // A merged-/usr system links /bin to usr/bin: the link is made again inside, never bound over.
    if (lstatSync(dir).isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else args.push("--ro-bind", dir, dir);
  }
  args.push("--perms", "0755", "--dir", "/etc");
  for (const name of readdirSync("/etc")) {
    if (ETC_NAMES.includes(name) || ETC_PREFIXES.some((prefix) => name.startsWith(prefix))) args.push("--ro-bind", join("/etc", name), join("/etc", name));
  }
  for (const dir of toolchainDirs()) args.push(...ancestors(dir), "--ro-bind", dir, dir);
  args.push("--proc", "/proc", "--dev", "/dev");
  args.push("--perms", "1777", "--size", String(space().shmBytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev");
  args.push("--perms", "1777", "--size", String(space().tmpBytes), "--tmpfs", "/tmp");
  return args;
}

function under(path: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => path === dir || path.startsWith(`${dir}${sep}`));
}

/** Node's own install (the team runs Node tests with the hub's Node) and what a human added (QUORUM_SANDBOX_READ). */
function toolchainDirs(): string[] {
  const node = dirname(dirname(process.execPath));
  const dirs = [...(under(node, SYSTEM_DIRS) ? [] : [node]), ...sandboxReadPaths()];
  return [...new Set(dirs.filter((dir) => isAbsolute(dir) && existsSync(dir)))];
}

let shown: string[] | undefined;
/** Every host folder the sandbox shows, read-only. */
function shownDirs(): string[] {
  shown ??= [...SYSTEM_DIRS, ...toolchainDirs()];
  return shown;
}

/**
 * Each folder above `path` made inside, world-readable: bwrap would copy the host's modes, and /root's 0700
 * would keep the unprivileged user out of a flight kept under it. Folders inside the system's binds exist.
 */
function ancestors(path: string): string[] {
  const args: string[] = [];
  const parts = resolve(path).split(sep).filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const dir = `${sep}${parts.slice(0, i).join(sep)}`;
    if (under(dir, SYSTEM_DIRS) || dir === "/tmp" || dir === "/etc") continue;
    args.push("--perms", "0755", "--dir", dir);
  }
  return args;
}

/**
 * The worktree's tmpfs at /workspace, its .git read-only in it, the clone's git dir read-only at its own path
 * (a worktree's .git names it), the environment's entries read-only (a few cache folders in them writable),
 * the source to copy; for a setup, the proxy's socket and the folder its results go to.
 */
function worktreeArgs(worktree: string, options: SandboxOptions, entries: readonly string[]): string[] {
  const args: string[] = [];
  const common = options.git ? commonGitDir(options.git.gitDir) : null;
  if (common && !common.startsWith(`${worktree}${sep}`)) args.push(...ancestors(common), "--ro-bind", common, common);
  args.push("--perms", privileged() ? "0755" : "0777", "--size", String(space().worktreeBytes), "--tmpfs", WORKSPACE);
  const dotGit = join(worktree, ".git");
  if (existsSync(dotGit)) args.push("--ro-bind", dotGit, `${WORKSPACE}/.git`);
  for (const name of entries) {
    args.push("--ro-bind", join(options.environment!, name), `${WORKSPACE}/${name}`);
    for (const inner of WRITABLE_INSIDE[name] ?? []) {
      const place = join(options.environment!, name, inner);
      if (lstatSync(place, { throwIfNoEntry: false })?.isDirectory()) args.push("--perms", "1777", "--size", String(space().tmpBytes), "--tmpfs", `${WORKSPACE}/${name}/${inner}`);
    }
  }
  if (options.setup) args.push("--bind", options.setup.output, OUTPUT, "--bind", options.setup.proxySocket, PROXY_SOCKET);
  args.push("--ro-bind", worktree, SOURCE, "--remount-ro", "/");
  return args;
}

/** A worktree's git dir's repository (its `commondir`, which only git on the hub writes), or the git dir itself. */
function commonGitDir(gitDir: string): string {
  const file = join(gitDir, "commondir");
  return existsSync(file) ? resolve(gitDir, readFileSync(file, "utf8").trim()) : gitDir;
}

/** Whether `program` will be found inside: in the worktree, the environment (for /workspace's folders) or the system. */
function programExists(program: string, root: string, path: string, environment: string | undefined): boolean {
  const onHost = (inside: string) => {
    if (!inside.startsWith(`${WORKSPACE}/`)) return existsSync(inside);
    const rest = inside.slice(WORKSPACE.length + 1);
    return existsSync(join(root, rest)) || (environment !== undefined && existsSync(join(environment, rest)));
  };
  if (program.includes("/")) return onHost(resolve(WORKSPACE, program));
  return path.split(":").some((dir) => dir !== "" && onHost(join(dir, program)));
}

/** The hub's PATH, less the folders the sandbox does not show. */
function insidePath(): string {
  const dirs = (inheritedEnvironment().PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":").filter((dir) => dir !== "" && under(dir, shownDirs()));
  return [...new Set(dirs)].join(":") || "/usr/bin:/bin";
}

/** Folders of an environment whose programs come first on PATH (a project's own runners, its virtualenv's Python). */
const ENVIRONMENT_BINS: Record<string, string> = { node_modules: "node_modules/.bin", ".venv": ".venv/bin" };

/**
 * What a workpiece's commands see of the environment in the sandbox: a PATH, a locale, a throwaway HOME, git
 * told to trust the worktree's owner (the hub's user, not the sandbox's), and where package managers that keep
 * dependencies outside the project find them (in the environment); nothing else. `entries`: the environment's
 * (their programs first on PATH), or null for a setup, which may make any of them.
 */
function workpieceEnvironment(entries: readonly string[] | null): Record<string, string> {
  const inherited = inheritedEnvironment();
  const bins = Object.entries(ENVIRONMENT_BINS)
    .filter(([entry]) => entries === null || entries.includes(entry))
    .map(([, bin]) => `${WORKSPACE}/${bin}`);
  const venv = entries === null || entries.includes(".venv");
  return {
    PATH: [...bins, insidePath()].join(":"),
    LANG: inherited.LANG ?? "C.UTF-8",
    HOME: "/tmp",
    TMPDIR: "/tmp",
    CI: "1",
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "safe.directory",
    GIT_CONFIG_VALUE_0: "*",
    GOPATH: `${ENV_HOME}/go`,
    CARGO_HOME: `${ENV_HOME}/cargo`,
    BUNDLE_PATH: `${ENV_HOME}/bundle`,
    ...(venv ? { VIRTUAL_ENV: `${WORKSPACE}/.venv` } : {}),
  };
}

/**
 * Unsandboxed (QUORUM_UNSANDBOXED=1), the command keeps the shell's environment but for Quorum's own variables
 * (its database, its keys, the hub's URL, the model's keys), libpq's, Next's, and anything that names a secret.
 */
const HIDDEN_VARIABLES = [/^DATABASE_URL$/i, /^QUORUM_/i, /^PG[A-Z]/i, /^NEXT_/i, /^__NEXT/i];

function unsandboxedEnvironment(): NodeJS.ProcessEnv {
  const env = inheritedEnvironment();
  for (const name of Object.keys(env)) if (namesASecret(name) || HIDDEN_VARIABLES.some((pattern) => pattern.test(name))) delete env[name];
  return env;
}

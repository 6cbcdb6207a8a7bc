// The sandbox every command the team runs on a workpiece goes through (run_tests today, any shell tool
// tomorrow): Debian's bubblewrap, with its own network (no loopback of the host: neither Quorum's API nor
// its Postgres), its own pids (no /proc/<pid>/environ of the app), uid nobody, the whole system read-only,
// the worktree the only writable path, its .git read-only (a test cannot commit), and Quorum's home, /root,
// /home, /run and the host's /tmp hidden under empty tmpfs. Secrets are hidden by not mounting them, not by
// permissions. Limits: CPU time, address space and file size (prlimit); the wall clock is the tool's timeout.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { inheritedEnvironment, namesASecret, quorumHomePath, unsandboxedAllowed } from "../../server/config";
import { MAX_PROCESSES, newProcessLimit, processLimitAvailable } from "./process-limit";

export const BWRAP = "/usr/bin/bwrap";

/** Per command: 10 minutes of CPU, 8 GiB of address space (V8 reserves much it never uses), 1 GiB per file. */
export const LIMITS = { cpuSeconds: 600, addressSpaceBytes: 8 * 1024 ** 3, fileBytes: 1024 ** 3 } as const;

/** Hidden under an empty tmpfs: where secrets and other people's work live on a machine. */
const HIDDEN_DIRS = ["/tmp", "/root", "/home", "/run", "/var/lib/postgresql"];

export interface SandboxedCommand {
  program: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Whether it runs inside the sandbox (false only with QUORUM_UNSANDBOXED=1 where bubblewrap cannot start). */
  sandboxed: boolean;
  /** Call once the command has exited: frees what its limits took (its process group's cgroup). */
  release(): void;
}

/** Thrown where the sandbox cannot start and QUORUM_UNSANDBOXED=1 does not allow running without it. */
export class NoSandbox extends Error {}

/** Thrown when the command's program is nowhere on PATH (inside, it would be an exit code, not a failure to start). */
export class NoSuchProgram extends Error {}

let probed: { available: true } | { available: false; reason: string } | undefined;

/** Whether bubblewrap can start here (asked once: it does not change while the process runs). */
export function sandboxAvailability(): { available: true } | { available: false; reason: string } {
  probed ??= probeSandbox();
  return probed;
}

function probeSandbox(): { available: true } | { available: false; reason: string } {
  if (!existsSync(BWRAP)) return { available: false, reason: `${BWRAP} is not installed (apt-get install bubblewrap)` };
  const trial = spawnSync(BWRAP, [...baseArgs(), "--", "true"], { encoding: "utf8", timeout: 10_000 });
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

/** Said in the worker's log (not the room: most machines of a non-root user give no pids cgroup) when commands run without a process limit. */
export function processLimitNotice(): string | null {
  if (!sandboxAvailability().available || processLimitAvailable()) return null;
  return `Agent code runs sandboxed but without a limit on its processes (${MAX_PROCESSES} where a pids cgroup can be made): this machine gives Quorum no writable pids cgroup.`;
}

/** `argv` as it runs in the sandbox with `root` its working directory; throws NoSandbox where it may not run. */
export function sandboxed(argv: readonly string[], root: string): SandboxedCommand {
  const availability = sandboxAvailability();
  const env = workpieceEnvironment();
  if (!availability.available) {
    if (!unsandboxedAllowed()) throw new NoSandbox(`${availability.reason}; set QUORUM_UNSANDBOXED=1 to run agent code without a sandbox`);
    return { program: argv[0], args: argv.slice(1), env: unsandboxedEnvironment(), sandboxed: false, release: () => {} };
  }
  const worktree = resolve(root);
  if (!programExists(argv[0], worktree, env.PATH)) throw new NoSuchProgram(`spawn ${argv[0]} ENOENT: no such program on PATH`);
  const args = [...baseArgs(), "--bind", worktree, worktree, ...gitReadOnly(worktree), "--chdir", worktree];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) args.push("--setenv", name, value);
  const limits = [`--cpu=${LIMITS.cpuSeconds}`, `--as=${LIMITS.addressSpaceBytes}`, `--fsize=${LIMITS.fileBytes}`];
  const inside = [...args, "--", "prlimit", ...limits, "--", ...argv];
  // bwrap clears the environment itself (--clearenv) and sets only what the command may see.
  const outer = { PATH: env.PATH } as unknown as NodeJS.ProcessEnv;
  const group = newProcessLimit();
  if (!group) return { program: BWRAP, args: inside, env: outer, sandboxed: true, release: () => {} };
  // A shell outside the sandbox enters the group, then becomes bubblewrap: everything inside is counted.
  return { program: "/bin/sh", args: ["-c", 'echo $$ > "$0" && exec "$@"', group.procs, BWRAP, ...inside], env: outer, sandboxed: true, release: group.release };
}

function programExists(program: string, root: string, path: string): boolean {
  if (program.includes("/")) return existsSync(resolve(root, program));
  return path.split(":").some((dir) => dir !== "" && existsSync(join(dir, program)));
}

function baseArgs(): string[] {
  // A symlink (/var/run → /run) is hidden with its target; a tmpfs cannot be mounted on the link itself.
  const hidden = [...HIDDEN_DIRS, quorumHomePath()].filter((dir) => existsSync(dir) && lstatSync(dir).isDirectory());
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-all",
    "--uid",
    "65534",
    "--gid",
    "65534",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    ...hidden.flatMap((dir) => ["--tmpfs", dir]),
  ];
}

/** The worktree's git metadata, read-only: its own .git folder, or a linked worktree's gitdir and the repository's common dir. */
function gitReadOnly(worktree: string): string[] {
  const dotGit = join(worktree, ".git");
  if (!existsSync(dotGit)) return [];
  if (statSync(dotGit).isDirectory()) return ["--ro-bind", dotGit, dotGit];
  const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
  if (!gitdir) return ["--ro-bind", dotGit, dotGit];
  const own = isAbsolute(gitdir) ? gitdir : resolve(worktree, gitdir);
  const commonFile = join(own, "commondir");
  const common = existsSync(commonFile) ? resolve(own, readFileSync(commonFile, "utf8").trim()) : dirname(dirname(own));
  return [...new Set([common, own])].filter((dir) => existsSync(dir)).flatMap((dir) => ["--ro-bind", dir, dir]);
}

/** What a workpiece's commands see of the environment in the sandbox: a PATH, a locale, a throwaway HOME; nothing else. */
function workpieceEnvironment(): Record<string, string> {
  const inherited = inheritedEnvironment();
  return { PATH: inherited.PATH ?? "/usr/local/bin:/usr/bin:/bin", LANG: inherited.LANG ?? "C.UTF-8", HOME: "/tmp", TMPDIR: "/tmp", CI: "1" };
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

// Every git command the hub runs on this machine (the team's clones and worktrees, the diffs a review reads,
// the user's repository a flight starts from) goes through here. A worktree is written by a model's file tools
// and once was by a workpiece's tests: whatever git would read from it is an attacker's. So git is
// told its git dir and work tree (a worktree's `.git` file is never followed), reads no system or global
// config, and runs no fsmonitor, hook, pager or submodule; only the repository config the hub wrote counts.
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { inheritedEnvironment } from "./config";

const execFileAsync = promisify(execFile);

/** Where a command works: a git dir the hub chose, and the work tree it reads, if any. */
export interface GitPlace {
  gitDir: string;
  workTree?: string;
}

/** Overrides that a repository's config cannot undo: git gives `-c` precedence over every file it reads. */
const SEALED = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.sshCommand=false",
  "diff.ignoreSubmodules=all",
  "status.submoduleSummary=false",
  "submodule.recurse=false",
  "protocol.allow=never",
  "protocol.file.allow=always",
  "gc.auto=0",
  "maintenance.auto=false",
  "credential.helper=",
].flatMap((setting) => ["-c", setting]);

/** The environment of every host-side git: PATH and the language, nothing of the hub's, no config outside the repository. */
function gitEnvironment(): Record<string, string> {
  const inherited = inheritedEnvironment();
  return {
    PATH: inherited.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: inherited.LANG ?? "C.UTF-8",
    HOME: "/nonexistent",
    XDG_CONFIG_HOME: "/nonexistent",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    GIT_EDITOR: "false",
  };
}

/** git's argv for `args` at `place` (null: the current directory's repository, for the user's own folder only). */
export function gitArgs(place: GitPlace | null, args: readonly string[]): string[] {
  const where = place ? [`--git-dir=${place.gitDir}`, ...(place.workTree ? [`--work-tree=${place.workTree}`] : [])] : [];
  return [...where, ...SEALED, ...args];
}

export interface GitOptions {
  /** The folder git runs in: a work tree's top (so relative paths and `--others` read from there). */
  cwd?: string;
  input?: string | Buffer;
  maxBuffer?: number;
  timeout?: number;
  /** Added to the sealed environment (GIT_INDEX_FILE for a throwaway index). */
  env?: Record<string, string>;
}

/** The sealed environment with a command's additions, as child_process types it. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...gitEnvironment(), ...extra } as unknown as NodeJS.ProcessEnv;
}

function cwdOf(place: GitPlace | null, options: GitOptions): string | undefined {
  return options.cwd ?? place?.workTree ?? place?.gitDir;
}

/** Runs git and returns its stdout; throws execFileSync's error (with git's stderr) when it fails. */
export function gitSync(place: GitPlace | null, args: readonly string[], options: GitOptions = {}): string {
  return execFileSync("git", gitArgs(place, args), {
    cwd: cwdOf(place, options),
    env: environment(options.env),
    encoding: "utf8",
    input: options.input,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    timeout: options.timeout,
  });
}

/** Runs git and returns its stdout as a Buffer (an archive, a blob). */
export function gitSyncBytes(place: GitPlace | null, args: readonly string[], options: GitOptions = {}): Buffer {
  return execFileSync("git", gitArgs(place, args), {
    cwd: cwdOf(place, options),
    env: environment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: options.maxBuffer ?? 1024 ** 3,
    timeout: options.timeout,
  });
}

/** As gitSync, without blocking the event loop. */
export async function gitAsync(place: GitPlace | null, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const { stdout } = await execFileAsync("git", gitArgs(place, args), {
    cwd: cwdOf(place, options),
    env: environment(options.env),
    encoding: "utf8",
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    timeout: options.timeout,
  });
  return stdout;
}

/** git as a streaming child process whose stdout is read as it comes (a diff); its stderr is dropped. */
export function gitSpawn(place: GitPlace | null, args: readonly string[], options: { timeout?: number } = {}) {
  return spawn("git", gitArgs(place, args), { cwd: cwdOf(place, {}), env: environment(), stdio: ["ignore", "pipe", "ignore"], timeout: options.timeout });
}

/** A clone with its own work tree: `<repo>/.git` and `<repo>`. */
export function cloneAt(repo: string): GitPlace {
  return { gitDir: join(repo, ".git"), workTree: repo };
}

/** The clone's git dir alone, for commands that read objects and refs only (no work tree, no attributes from one). */
export function objectsOf(repo: string): GitPlace {
  return { gitDir: join(repo, ".git") };
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * A linked worktree of `repo`, found from the clone's own records (`.git/worktrees/<name>/gitdir`, which only
 * git on the hub writes), never from the worktree's `.git` file. Null when the clone holds no such worktree.
 */
export function linkedWorktreeAt(repo: string, worktree: string): GitPlace | null {
  const admin = join(repo, ".git", "worktrees");
  if (!existsSync(admin)) return null;
  const wanted = new Set([join(resolve(worktree), ".git"), join(realOrResolved(worktree), ".git")]);
  for (const name of readdirSync(admin)) {
    const record = join(admin, name, "gitdir");
    if (!existsSync(record)) continue;
    if (wanted.has(readFileSync(record, "utf8").trim())) return { gitDir: join(admin, name), workTree: worktree };
  }
  return null;
}

// `quorum hook install`: puts the reservation guard in a repository's pre-commit hook and records where the hub is.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { HOOK_MARKER, preCommitScript } from "./hook-script";

export interface HookOptions {
  /** A folder inside the repository (default: the current one). */
  repo: string;
  url: string;
  /** The reservation scope (a repository name when one hub serves several); default `default`. */
  scope?: string;
  /** Stored in the repository's local git config (never in the hook file) when given. */
  key?: string;
  force?: boolean;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Writes the hook (honouring core.hooksPath) and the repository's quorum.url/scope(/key); returns the hook's path. */
export function installHook(options: HookOptions): { path: string; scope: string } {
  const top = git(options.repo, "rev-parse", "--show-toplevel");
  const hooks = git(top, "rev-parse", "--git-path", "hooks");
  const path = join(isAbsolute(hooks) ? hooks : resolve(top, hooks), "pre-commit");
  if (existsSync(path) && !readFileSync(path, "utf8").includes(HOOK_MARKER) && !options.force) {
    throw new Error(`${path} exists and is not Quorum's; move it aside or pass --force to replace it`);
  }
  // The same default as a reservation's, so an agent that names no scope is guarded without setup.
  const scope = options.scope ?? "default";
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, preCommitScript({ url: options.url, scope }));
  chmodSync(path, 0o755);
  git(top, "config", "--local", "quorum.url", options.url);
  git(top, "config", "--local", "quorum.scope", scope);
  if (options.key) git(top, "config", "--local", "quorum.key", options.key);
  return { path, scope };
}

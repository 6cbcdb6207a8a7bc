// The user's repository as a flight meets it: a git repository with a commit to start from, and the
// command that runs its tests. Read only: nothing here writes to the repository (a flight works in its
// own clone under QUORUM_HOME; agents/team/workspace.ts).
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { fail } from "../errors";
import { gitAsync, type GitPlace } from "../host-git";

export interface RepositoryAtHead {
  /** The repository's top folder (absolute). */
  path: string;
  /** The commit a flight starts from: HEAD when it was launched. */
  head: string;
  /** HEAD's branch, or null on a detached HEAD. */
  branch: string | null;
}

/** git in the user's repository (sealed as every host-side git is: no hook, fsmonitor or outside config runs). */
async function git(at: string | GitPlace, args: string[]): Promise<string | null> {
  try {
    return await gitAsync(typeof at === "string" ? null : at, args, { cwd: typeof at === "string" ? at : undefined, maxBuffer: 4 * 1024 * 1024 });
  } catch {
    return null;
  }
}

/** Refuses (400, with the reason) a path that is not an absolute path to a git repository with a commit. */
export async function inspectRepository(path: string): Promise<RepositoryAtHead> {
  if (!isAbsolute(path)) throw fail.invalid("flight", `the repository must be an absolute path, not '${path}'`);
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw fail.invalid("flight", `there is no folder at ${path}`);
  // The one command that finds the repository from a folder: every later one names the top's git dir.
  const top = (await git(path, ["rev-parse", "--show-toplevel"]))?.trim();
  if (!top) throw fail.invalid("flight", `${path} is not a git repository (git init it, or give the repository's folder)`);
  const head = (await git(top, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]))?.trim();
  if (!head) throw fail.invalid("flight", `${top} has no commit yet: commit what the team should start from`);
  const branch = (await git(top, ["symbolic-ref", "--quiet", "--short", "HEAD"]))?.trim() || null;
  return { path: top, head, branch };
}

/** A commit's file names, and a reader of any of them (null when the commit has none by that name). */
export interface CommitFiles {
  names: Set<string>;
  read(name: string): Promise<string | null>;
}

/** The files of `commit` in the user's repository, read from git's objects (never from a work tree). */
export async function filesAt(repo: string | GitPlace, commit: string): Promise<CommitFiles> {
  const names = new Set(((await git(repo, ["ls-tree", "-r", "--name-only", commit])) ?? "").split("\n").filter(Boolean));
  return { names, read: (name) => (names.has(name) ? git(repo, ["show", `${commit}:${name}`]) : Promise.resolve(null)) };
}

/** npm's placeholder script, which fails on purpose: not a test suite. */
const NPM_PLACEHOLDER = /no test specified/;

/**
 * The test command a flight runs when none is given, read from the commit the flight starts from
 * (first match wins): package.json's test script → `npm test`; a pytest configuration → `python3 -m
 * pytest`; go.mod → `go test ./...`; Cargo.toml → `cargo test`; a Makefile with a `test` target → `make
 * test`; other Python (pyproject.toml, setup.py or test_*.py files) → `python3 -m unittest` (standard
 * library discovery, which needs nothing installed). Null when none applies: the user must name one.
 */
export async function detectTestCommand(repo: string, commit: string): Promise<string | null> {
  const { names, read: at } = await filesAt(repo, commit);
  const pkg = await at("package.json");
  if (pkg) {
    try {
      const test = (JSON.parse(pkg) as { scripts?: { test?: unknown } }).scripts?.test;
      if (typeof test === "string" && test.trim() !== "" && !NPM_PLACEHOLDER.test(test)) return "npm test";
    } catch {
      // A package.json that is not JSON names no script.
    }
  }
  const pyproject = await at("pyproject.toml");
  const pytestConfigured =
    names.has("pytest.ini") ||
    names.has("conftest.py") ||
    /^\[tool\.pytest/m.test(pyproject ?? "") ||
    /^\[tool:pytest\]/m.test((await at("setup.cfg")) ?? "") ||
    /^\[pytest\]/m.test((await at("tox.ini")) ?? "");
  if (pytestConfigured) return "python3 -m pytest";
  if (names.has("go.mod")) return "go test ./...";
  if (names.has("Cargo.toml")) return "cargo test";
  const makefile = (await at("Makefile")) ?? (await at("makefile")) ?? (await at("GNUmakefile"));
  if (makefile && /^test\s*:/m.test(makefile)) return "make test";
  const python = pyproject !== null || names.has("setup.py") || [...names].some((name) => /(^|\/)test_[^/]*\.py$|(^|\/)[^/]*_test\.py$/.test(name));
  if (python) return "python3 -m unittest";
  return null;
}

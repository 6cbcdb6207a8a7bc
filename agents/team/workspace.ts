// The team's git work on a flight: its own clone of the user's repository, a worktree per task on the
// task's own branch, a worktree where the suite runs, integration into the flight's branch, and that branch
// published to the user's repository — the only thing the team ever writes there (never its HEAD, its
// checked-out branch or its work tree).
//
// Every command names its git dir (domain/host-git.ts): the clone's own `.git`, or a worktree's record inside
// it, never what a worktree's `.git` file says.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { branchOf } from "../../domain/flights/branch";
import type { MergeResult } from "../../domain/flights/integrate";
import type { FlightPlace } from "../../domain/flights/place";
import { cloneAt, type GitPlace, gitSync, linkedWorktreeAt } from "../../domain/host-git";

const IDENTITY = ["-c", "user.name=Quorum team", "-c", "user.email=team@quorum.localhost"];

/** Large enough for any diff a review shows (those are capped where they are read: domain/flights/task-diff.ts). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

function git(at: GitPlace | null, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): string {
  return gitSync(at, [...IDENTITY, ...args], { maxBuffer: MAX_OUTPUT_BYTES, ...options });
}

/** The clone's own git dir and work tree. */
function clone(place: FlightPlace): GitPlace {
  return cloneAt(place.repo);
}

/** A worktree of the flight's clone, by the clone's record of it; throws when the clone holds none there. */
export function worktreeGit(place: FlightPlace, worktree: string): GitPlace {
  if (!place.source && worktree === place.repo) return clone(place);
  const found = linkedWorktreeAt(place.repo, worktree);
  if (!found) throw new Error(`${worktree} is not a worktree of flight ${place.number}'s clone`);
  return found;
}

/** git's own words when a command failed (its stderr, else its stdout). */
function gitFailure(error: unknown): string {
  const failed = error as { stderr?: string; stdout?: string; message?: string };
  return (failed.stderr || failed.stdout || failed.message || String(error)).trim();
}

/** A task's branch (named in domain/, where the review reads its diff). */
export { branchOf };

/**
 * The flight's clone, made on first use: the user's repository cloned beside Quorum's data, its own work
 * tree on the flight's branch from the commit the flight started from. A flight that worked in place
 * (before flights had a source) has nothing to clone.
 */
export function ensureFlightClone(place: FlightPlace): void {
  if (!place.source || existsSync(join(place.repo, ".git"))) return;
  if (!place.baseCommit) throw new Error(`flight ${place.number} has a source but no commit to start from`);
  mkdirSync(dirname(place.repo), { recursive: true });
  git(null, ["clone", "--quiet", "--no-checkout", "--template=", place.source, place.repo], { cwd: dirname(place.repo) });
  git(clone(place), ["checkout", "--quiet", "-b", place.branch, place.baseCommit]);
}

/** Where a task's worktree lives: beside the clone, never inside it (nor inside the user's repository). */
export function worktreeOf(place: FlightPlace, taskId: string): string {
  return join(`${place.repo}.worktrees`, taskId);
}

/** A worktree on the task's own branch, started from the flight's branch as integrated so far. */
export function ensureWorktree(place: FlightPlace, taskId: string): string {
  ensureFlightClone(place);
  const dir = worktreeOf(place, taskId);
  if (!existsSync(dir)) {
    git(clone(place), ["worktree", "prune"]);
    const exists = git(clone(place), ["branch", "--list", branchOf(taskId)]).trim() !== "";
    git(clone(place), exists ? ["worktree", "add", "-q", dir, branchOf(taskId)] : ["worktree", "add", "-q", "-b", branchOf(taskId), dir, place.branch]);
  }
  return dir;
}

/** Drops a task's worktree and branch, so its next claim starts afresh from the flight's branch (after a conflict). */
export function discardWorktree(place: FlightPlace, taskId: string): void {
  // Removed by hand, then pruned: `git worktree remove` would read the worktree's own `.git` file.
  rmSync(worktreeOf(place, taskId), { recursive: true, force: true });
  git(clone(place), ["worktree", "prune"]);
  if (git(clone(place), ["branch", "--list", branchOf(taskId)]).trim() !== "") git(clone(place), ["branch", "-q", "-D", branchOf(taskId)]);
}

/** Starts a reopened task's work again from the flight's branch as integrated now (its old branch conflicted). */
export function restartFromFlightBranch(place: FlightPlace, taskId: string): string {
  const dir = ensureWorktree(place, taskId);
  git(worktreeGit(place, dir), ["reset", "-q", "--hard", place.branch]);
  git(worktreeGit(place, dir), ["clean", "-q", "-fd"]);
  return dir;
}

/** Commits what the coder changed and returns the diff against the flight's branch (empty when nothing changed). */
export function commitAndDiff(place: FlightPlace, worktree: string, message: string): string {
  const at = worktreeGit(place, worktree);
  git(at, ["add", "-A"]);
  if (git(at, ["status", "--porcelain"]).trim() !== "") git(at, ["commit", "-q", "-m", message]);
  return git(at, ["diff", `${place.branch}...HEAD`]);
}

/**
 * The worktree's files as a git tree, uncommitted and untracked ones included (read through an index of its
 * own, so the worktree's index and branch stay as they are): what a run starts from, for a fork to rebuild.
 */
export function treeOf(place: FlightPlace, worktree: string): string {
  const at = worktreeGit(place, worktree);
  const index = join(mkdtempSync(join(tmpdir(), "quorum-tree-")), "index");
  try {
    const run = (args: string[]) => git(at, args, { env: { GIT_INDEX_FILE: index } });
    // Starting from a copy of the worktree's own index keeps its file stats, so only changed files are hashed again.
    const own = join(at.gitDir, "index");
    if (existsSync(own)) copyFileSync(own, index);
    else run(["read-tree", "HEAD"]);
    run(["add", "-A"]);
    return run(["write-tree"]).trim();
  } finally {
    rmSync(dirname(index), { recursive: true, force: true });
  }
}

/** A submission's evidence carries this much of the diff: the review page reads the whole change from git. */
export const EVIDENCE_DIFF_CHARS = 64 * 1024;

/** The diff as evidence: whole when small, else cut at a file boundary with what was left out said. */
export function diffAsEvidence(diff: string): string {
  if (diff.length <= EVIDENCE_DIFF_CHARS) return diff;
  const cutAt = diff.lastIndexOf("\ndiff --git ", EVIDENCE_DIFF_CHARS);
  const shown = diff.slice(0, cutAt > 0 ? cutAt : EVIDENCE_DIFF_CHARS);
  const files = (diff.match(/^diff --git /gm) ?? []).length - (shown.match(/^diff --git /gm) ?? []).length;
  return `${shown}\n… the diff goes on for ${diff.length - shown.length} more characters${files > 0 ? ` (${files} more files)` : ""}: the task's branch holds it whole.`;
}

/** The diff a task's branch makes against the flight's branch: what its reviewer judges. */
export function branchDiff(place: FlightPlace, taskId: string): string {
  ensureFlightClone(place);
  if (git(clone(place), ["branch", "--list", branchOf(taskId)]).trim() === "") return "";
  return git(clone(place), ["diff", `${place.branch}...${branchOf(taskId)}`]);
}

/**
 * Merges an accepted task's branch into the flight's branch (the caller has checked the approver's ACCEPT).
 * A conflict leaves the flight's branch as it was and comes back in git's words, with the files it touched.
 * A branch that no longer stands at `expected` (its last integration, domain/flights/integrate.ts) is not
 * merged into: the commits in between come back by their subjects.
 */
export function mergeIntoFlight(place: FlightPlace, taskId: string, title: string, expected: string | null): MergeResult {
  ensureFlightClone(place);
  const at = clone(place);
  const actual = git(at, ["rev-parse", `refs/heads/${place.branch}`]).trim();
  if (expected !== null && actual !== expected) {
    const unexplained = git(at, ["log", "--format=%s", "--max-count=20", `${expected}..${actual}`])
      .split("\n")
      .filter(Boolean);
    return { moved: { actual, unexplained: unexplained.length ? unexplained : [`${place.branch} no longer contains ${expected.slice(0, 7)}`] } };
  }
  try {
    git(at, ["merge", "--no-ff", "-q", "-m", `Integrate ${title}`, branchOf(taskId)]);
  } catch (error) {
    const files = git(at, ["diff", "--name-only", "--diff-filter=U"]).trim();
    const said = gitFailure(error);
    try {
      git(at, ["merge", "--abort"]);
    } catch {
      git(at, ["reset", "--hard", "-q", "HEAD"]);
    }
    if (!files) throw new Error(`git could not merge ${branchOf(taskId)} into ${place.branch}: ${said}`, { cause: error });
    return { conflict: `Merging into ${place.branch} conflicted in:\n${files}\n\n${said}` };
  }
  return { commit: git(at, ["rev-parse", "HEAD"]).trim() };
}

/**
 * Publishes the flight's branch to the user's repository: a ref update there and nothing else (objects
 * and refs/heads/<branch>; their HEAD, branch and work tree are untouched). Git refuses it only when the
 * user has checked that very branch out; then the clone keeps the truth and this says why.
 */
export function publishFlightBranch(place: FlightPlace): string | null {
  if (!place.source) return null;
  try {
    git(clone(place), ["push", "--quiet", "--force", place.source, `refs/heads/${place.branch}:refs/heads/${place.branch}`]);
    return null;
  } catch (error) {
    return gitFailure(error);
  }
}

/** A worktree that holds the flight's branch as integrated, cleaned before each suite run (the clone's own stays for merging). */
export function suiteWorktree(place: FlightPlace): string {
  ensureFlightClone(place);
  if (!place.source) return place.repo;
  const dir = join(`${place.repo}.worktrees`, "suite");
  if (!existsSync(dir)) {
    git(clone(place), ["worktree", "prune"]);
    git(clone(place), ["worktree", "add", "-q", "--detach", dir, place.branch]);
  }
  const at = worktreeGit(place, dir);
  git(at, ["checkout", "-q", "--detach", place.branch]);
  git(at, ["reset", "-q", "--hard"]);
  git(at, ["clean", "-q", "-fd"]);
  return dir;
}

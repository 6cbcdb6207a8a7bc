// The team's git work: a worktree per task, its diff as evidence, and integration into `main`.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { branchOf } from "../../server/flights/branch";

const IDENTITY = ["-c", "user.name=Quorum team", "-c", "user.email=team@quorum.localhost"];

function git(cwd: string, args: string[]): string {
  return execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** A task's branch (named in server/, where the review reads its diff). */
export { branchOf };

/** A worktree beside the repository (not inside it), on the task's own branch from `main`. */
export function ensureWorktree(repo: string, taskId: string): string {
  const dir = join(`${repo}.worktrees`, taskId);
  if (!existsSync(dir)) {
    const exists = git(repo, ["branch", "--list", branchOf(taskId)]).trim() !== "";
    git(repo, exists ? ["worktree", "add", "-q", dir, branchOf(taskId)] : ["worktree", "add", "-q", "-b", branchOf(taskId), dir, "main"]);
  }
  return dir;
}

/** Commits what the coder changed and returns the diff against `main` (empty when nothing changed). */
export function commitAndDiff(worktree: string, message: string): string {
  git(worktree, ["add", "-A"]);
  if (git(worktree, ["status", "--porcelain"]).trim() !== "") git(worktree, ["commit", "-q", "-m", message]);
  return git(worktree, ["diff", "main...HEAD"]);
}

/** Merges an accepted task's branch into `main`; the caller has checked the approver's ACCEPT. */
export function mergeIntoMain(repo: string, taskId: string, title: string): string {
  git(repo, ["merge", "--no-ff", "-q", "-m", `Integrate ${title}`, branchOf(taskId)]);
  return git(repo, ["rev-parse", "HEAD"]).trim();
}

// The Merge button's git: brings a flight's reviewed branch into the branch the flight started from, in the
// user's repository, the way `git merge` would — a fast-forward when it can, else a merge commit — and never
// by force. Where that branch is checked out, git itself merges in that work tree and refuses to touch
// uncommitted work; a merge that would conflict is found first (git merge-tree) and refused, so a user's
// checkout is never left half-merged. Elsewhere the branch moves by a compare-and-swap of its ref.
import { gitAsync } from "../host-git";

export type MergeHow = "fast-forward" | "merge commit" | "already there";
export type MergeIntoSource = { merged: { commit: string; how: MergeHow } } | { refused: string };

export interface MergeRequest {
  /** The user's repository (its top folder). */
  source: string;
  /** The flight's branch there, and the commit the human reviewed: the branch must still stand there. */
  branch: string;
  reviewed: string;
  /** The branch to merge into (the one checked out when the flight started). */
  into: string;
  message: string;
  /** Who the merge commit names when the repository's own config names nobody. */
  identity: { name: string; email: string };
}

type Outcome = { ok: true; out: string } | { ok: false; out: string; said: string };

/** git in the user's repository (sealed: no hook, fsmonitor or outside config), with its exit told apart from its words. */
async function git(cwd: string, args: string[], env?: Record<string, string>): Promise<Outcome> {
  try {
    return { ok: true, out: (await gitAsync(null, args, { cwd, env, timeout: 120_000 })).trim() };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message?: string };
    // git says why on stderr; stdout only narrates ("Updating a..b"), so it is the reason only when stderr is silent.
    const said = (failure.stderr ?? "").trim() || (failure.stdout ?? "").trim() || String(failure.message ?? error);
    return { ok: false, out: (failure.stdout ?? "").trim(), said };
  }
}

const commitOf = async (cwd: string, ref: string) => {
  const found = await git(cwd, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  return found.ok ? found.out : null;
};

/** The work tree where `branch` is checked out (the main one or a linked one), or null. */
async function checkedOutAt(source: string, branch: string): Promise<string | null> {
  const listed = await git(source, ["worktree", "list", "--porcelain"]);
  if (!listed.ok) return null;
  let path: string | null = null;
  for (const line of listed.out.split("\n")) {
    if (line.startsWith("worktree ")) path = line.slice("worktree ".length);
    if (line === `branch refs/heads/${branch}`) return path;
  }
  return null;
}

/** The identity a merge commit carries: the repository's own when it names one, else the human's. */
async function identityEnv(cwd: string, identity: MergeRequest["identity"]): Promise<Record<string, string>> {
  const configured = await git(cwd, ["config", "--get", "user.name"]);
  if (configured.ok && configured.out) return {};
  return { GIT_AUTHOR_NAME: identity.name, GIT_AUTHOR_EMAIL: identity.email, GIT_COMMITTER_NAME: identity.name, GIT_COMMITTER_EMAIL: identity.email };
}

/** git's conflict lines for merging `theirs` into `ours`, or null when the merge is clean. */
async function conflictsOf(source: string, ours: string, theirs: string): Promise<{ tree: string } | { conflicts: string }> {
  const trial = await git(source, ["merge-tree", "--write-tree", "--name-only", ours, theirs]);
  if (trial.ok) return { tree: trial.out.split("\n")[0] };
  const lines = trial.out.split("\n").slice(1).filter(Boolean);
  return { conflicts: lines.length ? lines.join("\n") : trial.said };
}

export async function mergeIntoSource(request: MergeRequest): Promise<MergeIntoSource> {
  const { source, branch, reviewed, into } = request;
  const published = await commitOf(source, `refs/heads/${branch}`);
  if (published !== reviewed) {
    return {
      refused: published
        ? `${branch} in ${source} is at ${published.slice(0, 7)}, not the reviewed ${reviewed.slice(0, 7)}: something moved it since the review`
        : `${branch} is no longer in ${source}`,
    };
  }
  const target = await commitOf(source, `refs/heads/${into}`);
  if (!target) return { refused: `${into} is no longer a branch of ${source}` };
  if ((await git(source, ["merge-base", "--is-ancestor", reviewed, target])).ok) return { merged: { commit: target, how: "already there" } };
  const fastForward = (await git(source, ["merge-base", "--is-ancestor", target, reviewed])).ok;
  const trial = fastForward ? null : await conflictsOf(source, target, reviewed);
  if (trial && "conflicts" in trial) return { refused: `merging ${branch} into ${into} would conflict:\n${trial.conflicts}` };

  const checkout = await checkedOutAt(source, into);
  if (checkout) {
    // git merges in the work tree the user sees, and refuses by itself when uncommitted work would be touched.
    const args = fastForward ? ["merge", "--ff-only", reviewed] : ["merge", "--no-ff", "--no-edit", "-m", request.message, reviewed];
    const merged = await git(checkout, args, await identityEnv(checkout, request.identity));
    if (!merged.ok) {
      // A merge git began and could not finish is undone, so the checkout is as it was.
      if (await commitOf(checkout, "MERGE_HEAD")) await git(checkout, ["merge", "--abort"]);
      return { refused: `git refused to merge in ${checkout}:\n${merged.said}` };
    }
    const now = await commitOf(checkout, `refs/heads/${into}`);
    return now ? { merged: { commit: now, how: fastForward ? "fast-forward" : "merge commit" } } : { refused: `${into} vanished during the merge` };
  }

  let commit = reviewed;
  if (trial && "tree" in trial) {
    const made = await git(source, ["commit-tree", trial.tree, "-p", target, "-p", reviewed, "-m", request.message], await identityEnv(source, request.identity));
    if (!made.ok) return { refused: `git could not write the merge commit:\n${made.said}` };
    commit = made.out;
  }
  // Only if `into` still stands where it was read: a branch that moved meanwhile is never overwritten.
  const moved = await git(source, ["update-ref", "-m", request.message, `refs/heads/${into}`, commit, target]);
  if (!moved.ok) return { refused: `${into} moved while merging; nothing was changed:\n${moved.said}` };
  return { merged: { commit, how: fastForward ? "fast-forward" : "merge commit" } };
}

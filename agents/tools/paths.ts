// The path guard: a tool's paths resolve inside its root, symlinks included, never into git's own files
// (a `.git` file or folder at any depth: whoever writes one decides what the hub's git runs), and never onto a
// file with a second name (a hard link can name a file outside the root), or the call is refused.
import { lstatSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolFailure } from "./tool";

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Whether a path inside `root` passes through git's metadata: a segment named `.git`, in any case. */
function touchesGit(root: string, candidate: string): boolean {
  return path
    .relative(root, candidate)
    .split(path.sep)
    .some((segment) => segment.toLowerCase() === ".git");
}

/** Whether anything is at `at`, a link to nothing included. */
function isEntry(at: string): boolean {
  try {
    lstatSync(at);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `requested` within `root`; a ToolFailure when it would leave the root or reach git's files. */
export async function resolveInRoot(root: string, requested: string): Promise<string> {
  const refuse = () =>
    new ToolFailure(`the path '${requested}' is outside the working directory`, "use a path relative to the working directory, without '..' or links leading out of it");
  const refuseGit = () =>
    new ToolFailure(`the path '${requested}' is inside git's own files (.git)`, "work on the repository's files; the team's git is the hub's to run, not a tool's");
  const realRoot = await realpath(root);
  const target = path.resolve(realRoot, requested);
  if (!inside(realRoot, target)) throw refuse();
  if (touchesGit(realRoot, target)) throw refuseGit();
  // A link inside the root may point outside it, or into .git: check the deepest entry that exists (a dangling
  // link counts: writing through it would create its target), resolved.
  let existing = target;
  while (!isEntry(existing)) existing = path.dirname(existing);
  const real = await realpath(existing).catch(() => null);
  if (real === null || !inside(realRoot, real)) throw refuse();
  if (touchesGit(realRoot, real)) throw refuseGit();
  if (existing === target) {
    const stats = await lstat(real);
    if (stats.isFile() && stats.nlink > 1) {
      throw new ToolFailure(`'${requested}' is a hard link (the file has ${stats.nlink} names)`, "a hard link may name a file outside the working directory: leave it as it is");
    }
  }
  return target;
}

/** The path as the journal records it: relative to the root, normalised. */
export function artefactPath(requested: string): string {
  return path.normalize(requested).replace(/^(\.\/)+/, "");
}

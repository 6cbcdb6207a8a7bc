// The path guard: a tool's paths resolve inside its root, symlinks included, or the call is refused.
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { ToolFailure } from "./tool";

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The absolute path of `requested` within `root`; a ToolFailure when it would leave the root. */
export async function resolveInRoot(root: string, requested: string): Promise<string> {
  const refuse = () =>
    new ToolFailure(`the path '${requested}' is outside the working directory`, "use a path relative to the working directory, without '..' or links leading out of it");
  const realRoot = await realpath(root);
  const target = path.resolve(realRoot, requested);
  if (!inside(realRoot, target)) throw refuse();
  // A link inside the root may point outside it: check the deepest part that exists, resolved.
  let existing = target;
  while (!existsSync(existing)) existing = path.dirname(existing);
  if (!inside(realRoot, await realpath(existing))) throw refuse();
  return target;
}

/** The path as the journal records it: relative to the root, normalised. */
export function artefactPath(requested: string): string {
  return path.normalize(requested).replace(/^(\.\/)+/, "");
}

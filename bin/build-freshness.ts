// Whether the web app's build is the code as it is now. `quorum start` builds when there is no build and again when a
// source changed after it (a `git pull`, an edit): an upgrade must not go on serving the previous version's app.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** What the Next build bundles, or decides how it is built. Tests are not bundled, so editing one asks for no build. */
const SOURCE_FOLDERS = ["app", "components", "domain", "surfaces", "db", "agents", "client"];
const SOURCE_FILES = ["next.config.ts", "proxy.ts", "instrumentation.ts", "postcss.config.mjs", "tsconfig.json", "package-lock.json"];

export type BuildState = { state: "missing" } | { state: "stale"; changed: string } | { state: "current" };

/** The first source file changed after `stamp` (ms), or null: a walk of mtimes, a few milliseconds for the whole tree. */
function changedSince(root: string, path: string, stamp: number): string | null {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const full = join(path, entry.name);
    if (entry.isDirectory()) {
      const found = changedSince(root, full, stamp);
      if (found) return found;
    } else if (!/\.test\.tsx?$/.test(entry.name) && statSync(full).mtimeMs > stamp) {
      return relative(root, full);
    }
  }
  return null;
}

export function buildState(root: string, distDir: string): BuildState {
  const buildId = join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId)) return { state: "missing" };
  const built = statSync(buildId).mtimeMs;
  for (const file of SOURCE_FILES) {
    const full = join(root, file);
    if (existsSync(full) && statSync(full).mtimeMs > built) return { state: "stale", changed: file };
  }
  for (const folder of SOURCE_FOLDERS) {
    const changed = changedSince(root, join(root, folder), built);
    if (changed) return { state: "stale", changed };
  }
  return { state: "current" };
}

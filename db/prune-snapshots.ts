// Keeps only the newest drizzle snapshot: drizzle-kit generate diffs the schema against the newest one
// alone, and the migrator reads the journal and the SQL, so older snapshots are megabytes nobody reads.
import { spawnSync } from "node:child_process";
import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";

export const metaFolder = join(import.meta.dirname, "migrations", "meta");

/** The snapshot files in `folder`, oldest first. */
export function snapshotFiles(folder = metaFolder): string[] {
  return readdirSync(folder)
    .filter((name) => /^\d{4}_snapshot\.json$/.test(name))
    .sort();
}

/** Deletes every snapshot but the newest; returns the names it deleted. */
export function pruneSnapshots(folder = metaFolder): string[] {
  const older = snapshotFiles(folder).slice(0, -1);
  for (const name of older) unlinkSync(join(folder, name));
  return older;
}

// `npm run db:generate -- --name <rule> [--custom]`: drizzle-kit generate with those arguments, then the prune.
if (process.argv[1] === import.meta.filename) {
  const kit = join(import.meta.dirname, "..", "node_modules", ".bin", "drizzle-kit");
  const generated = spawnSync(kit, ["generate", ...process.argv.slice(2)], { stdio: "inherit" });
  if (generated.status !== 0) process.exit(generated.status ?? 1);
  const pruned = pruneSnapshots();
  if (pruned.length > 0) console.log(`pruned ${pruned.length} older snapshot(s): ${pruned.join(", ")}`);
}

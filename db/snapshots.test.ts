// The one snapshot kept is the newest migration's, so `npm run db:generate` diffs against the schema as migrated.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { metaFolder, snapshotFiles } from "./prune-snapshots";

describe("drizzle snapshots", () => {
  it("keeps exactly one, the newest migration's", () => {
    const journal = JSON.parse(readFileSync(join(metaFolder, "_journal.json"), "utf8")) as { entries: { idx: number }[] };
    const newest = Math.max(...journal.entries.map((e) => e.idx));
    expect(snapshotFiles()).toEqual([`${String(newest).padStart(4, "0")}_snapshot.json`]);
  });
});

// `quorum start` rebuilds the web app when a source changed after the build, and only then.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildState } from "./build-freshness";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout with one server source and one test, and a build made at `builtAt` (seconds). */
function checkout(builtAt: number | null): string {
  const root = mkdtempSync(join(tmpdir(), "quorum-build-"));
  made.push(root);
  mkdirSync(join(root, "domain", "rooms"), { recursive: true });
  for (const file of ["domain/rooms/post.ts", "domain/rooms/post.test.ts", "package-lock.json"]) {
    writeFileSync(join(root, file), "x");
    utimesSync(join(root, file), 1_000, 1_000);
  }
  if (builtAt !== null) {
    mkdirSync(join(root, ".next"));
    writeFileSync(join(root, ".next", "BUILD_ID"), "b");
    utimesSync(join(root, ".next", "BUILD_ID"), builtAt, builtAt);
  }
  return root;
}

describe("the web app's build", () => {
  it("is missing with no BUILD_ID, current when every source is older", () => {
    expect(buildState(checkout(null), ".next")).toEqual({ state: "missing" });
    expect(buildState(checkout(2_000), ".next")).toEqual({ state: "current" });
  });

  it("is stale once a source changed after it (a pull, an edit), naming the file; a test's edit asks for no build", () => {
    const root = checkout(2_000);
    utimesSync(join(root, "domain/rooms/post.test.ts"), 3_000, 3_000);
    expect(buildState(root, ".next")).toEqual({ state: "current" });
    utimesSync(join(root, "domain/rooms/post.ts"), 3_000, 3_000);
    expect(buildState(root, ".next")).toEqual({ state: "stale", changed: join("domain", "rooms", "post.ts") });
  });

  it("is stale when the lockfile changed (new dependencies)", () => {
    const root = checkout(2_000);
    utimesSync(join(root, "package-lock.json"), 3_000, 3_000);
    expect(buildState(root, ".next")).toEqual({ state: "stale", changed: "package-lock.json" });
  });
});

// Overlap of reservable globs: nested globs, `**`, braces, character classes and exact files.
import { describe, expect, it } from "vitest";
import { globsOverlap } from "./overlap";
import { globPattern } from "./patterns";

const overlapping: [string, string][] = [
  ["src/**", "src/lib/parse.ts"],
  ["src/lib/**", "src/**/*.ts"],
  ["src/lib/**", "src/lib/deep/er/x.ts"],
  ["**", "README.md"],
  ["**/*.md", "docs/guide/intro.md"],
  ["src/*.ts", "src/a*"],
  ["src/*/index.ts", "src/lib/**"],
  ["a/**/b/*.ts", "a/c/**/d.ts"],
  ["src/{a,b}/x.ts", "src/b/*"],
  ["src/{lib,app}/parse.ts", "src/lib/**"],
  ["src/file{1..3}.ts", "src/file2.ts"],
  ["src/[ab].ts", "src/b.ts"],
  ["src/**", "src/.env"],
  ["README.md", "README.md"],
];

const disjoint: [string, string][] = [
  ["src/**", "docs/intro.md"],
  ["src/lib/**", "src/libs/**"],
  ["src/*.ts", "src/*.js"],
  ["**/*.md", "src/**/*.ts"],
  ["src/{a,b}/x.ts", "src/c/*"],
  ["src/*/index.ts", "src/lib/deep/x/index.ts"],
  ["src/**/test/*.ts", "src/a/b/test/x.js"],
  ["src/[ab].ts", "src/c.ts"],
  ["src/?.ts", "src/ab.ts"],
  ["README.md", "readme.md"],
  ["src/parse.ts", "src/parse.ts.bak"],
];

describe("globsOverlap", () => {
  it.each(overlapping)("%s and %s overlap (both ways)", (a, b) => {
    expect(globsOverlap(a, b).overlap).toBe(true);
    expect(globsOverlap(b, a).overlap).toBe(true);
  });

  it.each(disjoint)("%s and %s are disjoint (both ways)", (a, b) => {
    expect(globsOverlap(a, b).overlap).toBe(false);
    expect(globsOverlap(b, a).overlap).toBe(false);
  });

  it("names a path both match when it finds one", () => {
    expect(globsOverlap("src/**", "src/lib/parse.ts").example).toBe("src/lib/parse.ts");
    expect(globsOverlap("src/{a,b}/x.ts", "src/b/*").example).toBe("src/b/x.ts");
  });
});

describe("globPattern", () => {
  it("normalises folders and ./, and refuses what cannot be reserved", () => {
    expect(globPattern.parse("src/lib/")).toBe("src/lib/**");
    expect(globPattern.parse("./docs/*.md")).toBe("docs/*.md");
    for (const bad of ["", "/etc/passwd", "C:/x", "../up/**", "src/../x", "!src/**", "src\\win.ts", "a{1..500}", "nul\u0000"]) {
      expect(globPattern.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

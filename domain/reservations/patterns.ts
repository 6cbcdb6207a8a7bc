// What a reservable pattern is (a repository-relative glob), how braces expand and how a path matches.
// Every bound is checked on the pattern's text before any expansion or matching (a brace product
// and a backtracking glob each froze the server for seconds).
import braces from "braces";
import picomatch from "picomatch";
import { z } from "zod";
import { braceExpansionCount } from "./brace-count";
import { compileGlob } from "./glob-match";

/** Dotfiles count: reserving `src/**` covers `src/.env` too. */
export const GLOB_OPTIONS = { dot: true } as const;
/** A pattern may expand (braces, ranges) into at most this many globs. */
export const MAX_EXPANSIONS = 64;
/** One grant's patterns together: conflicts compare each expanded glob with each one held in the scope. */
export const MAX_GRANT_EXPANSIONS = 128;
/** Wildcards (`*` runs, `?`, classes) in one path segment: `*.test.ts` has one, `*-v*.md` two. */
export const MAX_SEGMENT_WILDCARDS = 4;
/** Brace sets in one pattern: with at most 64 expansions, only six can have two alternatives each. */
const MAX_BRACE_SETS = 16;

const EXTGLOB = /[@!+?*]\(/;

function wildcardsIn(segment: string): number {
  return (segment.match(/\*+|\?|\[[^\]]*\]/g) ?? []).length;
}

/** Braces and ranges expanded (`src/{a,b}/*.ts` → two globs); a pattern without braces is itself. */
export function expandPattern(pattern: string): string[] {
  const expanded = braces(pattern, { expand: true, rangeLimit: MAX_EXPANSIONS });
  return [...new Set(expanded.length > 0 ? expanded : [pattern])];
}

/** A trailing slash names a folder and everything under it; a leading `./` is dropped. */
export function normalizePattern(raw: string): string {
  let pattern = raw.trim().replace(/^(\.\/)+/, "");
  if (pattern.endsWith("/")) pattern = `${pattern}**`;
  return pattern;
}

function whyNotReservable(pattern: string): string | null {
  if (pattern.length === 0) return "a pattern cannot be empty";
  if (pattern.includes("\0")) return "a pattern may not contain NUL";
  if (pattern.startsWith("/") || /^[A-Za-z]:[\\/]/.test(pattern)) return "patterns are relative to the repository root, not absolute";
  if (pattern.startsWith("!")) return "negated patterns cannot be reserved: name what you will touch";
  if (pattern.split("/").some((segment) => segment === ".." || segment === ".")) return "'.' and '..' segments are not allowed";
  if (pattern.includes("\\")) return "use '/' as the separator; backslashes are not allowed";
  if (EXTGLOB.test(pattern)) return "extglobs (@(…), +(…), !(…)) are not supported: use braces, {a,b}";
  if (pattern.includes("[[:")) return "POSIX classes ([[:alpha:]]) are not supported: use ranges, [a-z]";
  if (braceExpansionCount(pattern) > MAX_EXPANSIONS) return `the braces expand to more than ${MAX_EXPANSIONS} globs`;
  if ((pattern.match(/\{/g) ?? []).length > MAX_BRACE_SETS) return `a pattern may hold at most ${MAX_BRACE_SETS} brace sets`;
  const crowded = pattern.split("/").find((segment) => segment !== "**" && wildcardsIn(segment) > MAX_SEGMENT_WILDCARDS);
  if (crowded !== undefined) return `'${crowded}' has more than ${MAX_SEGMENT_WILDCARDS} wildcards in one segment`;
  try {
    picomatch.makeRe(pattern, GLOB_OPTIONS);
  } catch {
    return "not a valid glob";
  }
  return null;
}

/** One reservable glob, e.g. `src/lib/**`, `docs/*.md`, `src/{a,b}/index.ts`, `README.md`, `src/lib/`. */
export const globPattern = z
  .string()
  .max(512)
  .transform(normalizePattern)
  .superRefine((pattern, ctx) => {
    const why = whyNotReservable(pattern);
    if (why) ctx.addIssue({ code: "custom", message: why });
  });

/** A path as git names it: repository-relative, forward slashes. */
export const repoPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes("\0"), "a path may not contain NUL")
  .transform((p) => p.replace(/^(\.\/)+/, ""));

/** Compiled once per pattern (each expansion with the non-backtracking matcher): does a concrete path fall under it? */
export function pathMatcher(patterns: string[]): (path: string) => string | null {
  const matchers = patterns.flatMap((pattern) => expandPattern(pattern).map((glob) => ({ pattern, test: compileGlob(glob) })));
  return (path) => matchers.find((m) => m.test(path))?.pattern ?? null;
}

export function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern).isGlob;
}

// Whether two reservable globs can name one path: braces expand, candidate paths are matched, segments align.
import { globMatches } from "./glob-match";
import { expandPattern, isGlob } from "./patterns";

export interface Overlap {
  overlap: boolean;
  /** A path both patterns match, when one was found (shown to the agent that was refused). */
  example?: string;
}

const matches = globMatches;

/** Turns a glob into a concrete path by filling each wildcard (`**` and `*` with `filler`, `?` and classes with one char). */
function instantiate(pattern: string, filler: string): string {
  const segments = pattern.split("/").flatMap((segment) => {
    if (segment === "**") return filler ? [filler] : [];
    const filled = segment
      .replace(/\[!?\^?([^\]]*)\]/g, (_, members: string) => members.replace(/^[!^]/, "").charAt(0) || "x")
      .replace(/[@!+?*]\(([^)|]*)[^)]*\)/g, "$1")
      .replace(/\*+/g, filler)
      .replace(/\?/g, "x");
    return [filled || "x"];
  });
  return segments.join("/") || "x";
}

/** Candidate paths built from both patterns; each is checked by picomatch against both. */
function findExample(a: string, b: string): string | undefined {
  for (const filler of ["", "x"]) {
    for (const candidate of [instantiate(a, filler), instantiate(b, filler)]) {
      if (matches(candidate, a) && matches(candidate, b)) return candidate;
    }
  }
  return undefined;
}

const WILDCARD = /[*?[(]/;

/** The literal text before the first wildcard and after the last one. */
function literalEnds(segment: string): { head: string; tail: string } {
  const first = segment.search(WILDCARD);
  let last = -1;
  for (let i = segment.length - 1; i >= 0; i--) {
    if (/[*?\])]/.test(segment[i])) {
      last = i;
      break;
    }
  }
  return { head: segment.slice(0, first), tail: segment.slice(last + 1) };
}

/**
 * Two wildcard segments can share a name only if their literal heads agree (one a prefix of the
 * other) and so do their literal tails. That is exact for one `*` each (`a*` / `*.ts` share `a.ts`;
 * `*.ts` / `*.js` share nothing) and conservative otherwise: a pair it cannot rule out counts as an
 * overlap, because a false refusal costs a retry and a missed one costs a merge.
 */
function segmentsOverlap(s: string, t: string): boolean {
  if (!isGlob(s)) return matches(s, t);
  if (!isGlob(t)) return matches(t, s);
  if (findExample(s, t) !== undefined) return true;
  const a = literalEnds(s);
  const b = literalEnds(t);
  const headsAgree = a.head.startsWith(b.head) || b.head.startsWith(a.head);
  const tailsAgree = a.tail.endsWith(b.tail) || b.tail.endsWith(a.tail);
  return headsAgree && tailsAgree;
}

/** Aligns the segments of two brace-free globs; `**` stands for zero or more whole segments. */
function alignSegments(a: string[], b: string[]): boolean {
  const memo = new Map<string, boolean>();
  const visit = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === a.length && j === b.length) result = true;
    else if (a[i] === "**") result = visit(i + 1, j) || (j < b.length && visit(i, j + 1));
    else if (b[j] === "**") result = visit(i, j + 1) || (i < a.length && visit(i + 1, j));
    else if (i < a.length && j < b.length) result = segmentsOverlap(a[i], b[j]) && visit(i + 1, j + 1);
    else result = false;
    memo.set(key, result);
    return result;
  };
  return visit(0, 0);
}

function expandedOverlap(a: string, b: string): Overlap {
  if (a === b) return { overlap: true, example: isGlob(a) ? findExample(a, b) : a };
  if (!isGlob(a)) return matches(a, b) ? { overlap: true, example: a } : { overlap: false };
  if (!isGlob(b)) return matches(b, a) ? { overlap: true, example: b } : { overlap: false };
  const example = findExample(a, b);
  if (example !== undefined) return { overlap: true, example };
  return { overlap: alignSegments(a.split("/"), b.split("/")) };
}

/** Do the two patterns (braces allowed) share at least one path? */
export function globsOverlap(a: string, b: string): Overlap {
  let undecided: Overlap | null = null;
  for (const x of expandPattern(a)) {
    for (const y of expandPattern(b)) {
      const verdict = expandedOverlap(x, y);
      if (verdict.overlap && verdict.example !== undefined) return verdict;
      if (verdict.overlap) undecided = verdict;
    }
  }
  return undecided ?? { overlap: false };
}

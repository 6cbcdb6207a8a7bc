// A glob matcher that never backtracks, for brace-free reservable globs (`*`, `?`, `[...]`, `**`).
// picomatch compiles to a JavaScript regex, and `*a*a*a…b` against a long name of `a`s backtracks
// for seconds inside the scope's lock. Here a segment is split at its stars into pieces
// that must appear in order, and each piece is placed at its leftmost fit: for a star the leftmost
// fit is never worse than a later one, so no choice is ever revisited. `**` segments split the
// path the same way, whole segments at a time. Work is bounded by (path length × pattern length).

type CharTest = (c: string) => boolean;
/** A run of one-character tests between two stars (or the segment's ends). */
type Piece = CharTest[];
/** One segment: its pieces, which stars separate (one piece: no star). */
interface SegmentGlob {
  pieces: Piece[];
}
/** Segments between globstars: the first group is anchored at the start, the last at the end. */
type Group = SegmentGlob[];

/** `[abc]`, `[a-z]`, `[!x]`/`[^x]` at `start` (on the `[`): its test and where it ends, or null for a literal `[`. */
function parseClass(text: string, start: number): { test: CharTest; end: number } | null {
  let i = start + 1;
  const negated = text[i] === "!" || text[i] === "^";
  if (negated) i++;
  const ranges: [string, string][] = [];
  // A `]` first is a member, not the end.
  for (let first = true; i < text.length && (first || text[i] !== "]"); first = false) {
    const isRange = text[i + 1] === "-" && i + 2 < text.length && text[i + 2] !== "]";
    ranges.push([text[i], isRange ? text[i + 2] : text[i]]);
    i += isRange ? 3 : 1;
  }
  if (i >= text.length) return null;
  const within = (c: string) => ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return { test: negated ? (c) => c !== "/" && !within(c) : (c) => c !== "/" && within(c), end: i + 1 };
}

function parseSegment(segment: string): SegmentGlob {
  const pieces: Piece[] = [[]];
  for (let i = 0; i < segment.length; ) {
    const c = segment[i];
    if (c === "*") {
      while (segment[i] === "*") i++;
      pieces.push([]);
    } else if (c === "?") {
      pieces.at(-1)!.push((x) => x !== "/");
      i++;
    } else {
      const cls = c === "[" ? parseClass(segment, i) : null;
      if (cls) {
        pieces.at(-1)!.push(cls.test);
        i = cls.end;
      } else {
        pieces.at(-1)!.push((x) => x === c);
        i++;
      }
    }
  }
  return { pieces };
}

const fitsAt = (name: string, at: number, piece: Piece) => piece.every((test, k) => test(name[at + k]));

/**
 * The one placement rule, for characters between stars and for segments between globstars: `parts` are
 * runs that must appear in order in a sequence of `length` items, the first at its start and the last at
 * its end (a lone part must fill it exactly), each middle one at its leftmost fit after the one before.
 */
function fitsInOrder<T extends { length: number }>(length: number, parts: T[], fitsAt: (at: number, part: T) => boolean): boolean {
  const first = parts[0];
  if (parts.length === 1) return length === first.length && fitsAt(0, first);
  const last = parts.at(-1)!;
  const lastAt = length - last.length;
  if (lastAt < first.length || !fitsAt(0, first) || !fitsAt(lastAt, last)) return false;
  let pos = first.length;
  for (const part of parts.slice(1, -1)) {
    let at = pos;
    while (at + part.length <= lastAt && !fitsAt(at, part)) at++;
    if (at + part.length > lastAt) return false;
    pos = at + part.length;
  }
  return true;
}

function segmentMatches(glob: SegmentGlob, name: string): boolean {
  return fitsInOrder(name.length, glob.pieces, (at, piece) => fitsAt(name, at, piece));
}

const groupFitsAt = (names: string[], at: number, group: Group) => group.every((glob, k) => segmentMatches(glob, names[at + k]));

/** Compiles a brace-free glob once; the returned test is what a path is checked with. */
export function compileGlob(glob: string): (path: string) => boolean {
  const groups: Group[] = [[]];
  for (const segment of glob.split("/")) {
    if (segment === "**") {
      if (groups.at(-1)!.length > 0 || groups.length === 1) groups.push([]);
    } else groups.at(-1)!.push(parseSegment(segment));
  }
  return (path) => {
    const names = path.split("/");
    return fitsInOrder(names.length, groups, (at, group) => groupFitsAt(names, at, group));
  };
}

/** One-off match of a path (or a segment) against a brace-free glob. */
export function globMatches(path: string, glob: string): boolean {
  return compileGlob(glob)(path);
}

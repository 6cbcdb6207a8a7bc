// How many globs a pattern's braces expand to, counted from the pattern without expanding it: `braces`
// checks its count only after building every expansion, and 32 patterns of `{a,b}` × 18 built
// millions of strings and froze the server. Counting is one pass over the text: a brace
// set adds its alternatives' counts (a range counts its steps), a sequence multiplies its parts.
// The count is an upper bound of what `braces` expands to, so a pattern within the cap is safe to expand.

const RANGE = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/;

function rangeSize(body: string): number | null {
  const m = RANGE.exec(body);
  if (!m) return null;
  const [from, to] = [m[1], m[2]].map((end) => (/^-?\d+$/.test(end) ? Number(end) : end.charCodeAt(0)));
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  return Math.floor(Math.abs(to - from) / step) + 1;
}

/** Where the brace opened at `open` closes, or -1 when it never does (then it is a literal `{`). */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The top-level comma-separated alternatives of a brace set's body. */
function alternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "{") depth++;
    else if (body[i] === "}") depth--;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** The number of globs `pattern` expands to (1 without braces); Infinity past Number's range. */
export function braceExpansionCount(pattern: string): number {
  let product = 1;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "{") continue;
    const close = closingBrace(pattern, i);
    if (close < 0) continue;
    const body = pattern.slice(i + 1, close);
    const parts = alternatives(body);
    const size = parts.length > 1 ? parts.reduce((sum, part) => sum + braceExpansionCount(part), 0) : (rangeSize(body) ?? braceExpansionCount(body));
    product *= size;
    i = close;
  }
  return product;
}

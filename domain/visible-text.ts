// Text a reader can see. Zero-width spaces, joiners, BOMs, direction marks and blank "letters"
// (Hangul fillers, the braille blank) render as nothing, yet they pass a plain non-empty or `\S` check:
// an ADR of U+200B once cancelled a task. Rules that demand words count what is left without them.

/**
 * Characters that show nothing on their own: format characters (\p{Cf}: U+200B–U+200F, U+2060,
 * U+FEFF, the tag block…), controls, every kind of space and line break, combining marks
 * (an accent needs a letter), and the few letters and symbols that render blank.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Z}\p{M}\s\u115F\u1160\u3164\uFFA0\u2800]/gu;

/** `text` without its invisible characters (after NFKC, so look-alike widths and ligatures count once). */
export function visibleText(text: string): string {
  return text.normalize("NFKC").replace(INVISIBLE, "");
}

/** How many characters a reader would see (code points, not UTF-16 units). */
export function visibleLength(text: string): number {
  return [...visibleText(text)].length;
}

const FORMAT_AND_SPACE = /[\p{Cf}\p{Cc}\p{Z}\s]/gu;

/**
 * The form two texts are compared in when only their words matter: NFKC, lower case, with no
 * whitespace or invisible format characters at all, so "All 12 tests pass" and
 * "  all 12\u200b   TESTS pass " compare equal.
 */
export function comparableText(text: string): string {
  return text.normalize("NFKC").replace(FORMAT_AND_SPACE, "").toLowerCase();
}

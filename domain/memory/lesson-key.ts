// When two lessons are "the same lesson": equal after normalising case, punctuation, spacing and Unicode forms.
import { fail } from "../errors";

/**
 * The key of a lesson: NFKC-normalised, lower-cased, every run of characters that are not letters
 * or digits turned into one space, trimmed. So "Run the tests before you submit." and
 * "run the tests — before you submit" are one lesson, while a reworded lesson is another: words
 * and their order count, nothing else. Deliberately strict: a false merge would let one source's
 * phrasing ride on another's evidence, while a missed merge only delays a promotion.
 */
export function lessonKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Keys are indexed (unique per source and task, one principle per key): they must stay well under a btree row. */
export const MAX_KEY_BYTES = 2000;

/** The key of a text as input to a rule: a 400 on `text` when nothing is left or too much is. */
export function requireLessonKey(text: string): string {
  const key = lessonKey(text);
  const problem = !key
    ? "a lesson needs words, not only punctuation"
    : Buffer.byteLength(key) > MAX_KEY_BYTES
      ? `a lesson may hold at most ${MAX_KEY_BYTES} bytes once normalised`
      : null;
  if (problem) throw fail.invalid("lesson", problem, { issues: [{ code: "custom", path: ["text"], message: problem }] });
  return key;
}

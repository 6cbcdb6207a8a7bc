// React keys for lists whose items have no id (lines of text, pieces of evidence, a refusal's issues).

/**
 * Pairs each item with a key made of its own text; an item whose text repeats gets its occurrence
 * number in front (`1:…`, `2:…`), so keys stay unique and follow the content, not the position.
 */
export function withContentKeys<T>(items: readonly T[], text: (item: T) => string): { key: string; item: T }[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const t = text(item);
    const n = seen.get(t) ?? 0;
    seen.set(t, n + 1);
    return { key: `${n}:${t}`, item };
  });
}

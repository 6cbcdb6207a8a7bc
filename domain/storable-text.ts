// Text Postgres cannot keep: NUL in `text`, and unpaired UTF-16 surrogates in `jsonb` (every change is journalled).
// Refused up front as a 400 on every surface, instead of surfacing later as a database error.

export interface UnstorableIssue {
  code: "custom";
  path: (string | number)[];
  message: string;
}

const MESSAGE = "text may not contain NUL characters or unpaired UTF-16 surrogates";

function storable(text: string): boolean {
  return text.isWellFormed() && !text.includes("\u0000");
}

/** JSON nested deeper than this is refused: no Quorum input needs it, and walking it costs the stack. */
export const MAX_DEPTH = 64;

/** Walks a parsed JSON value (keys included, iteratively) and lists what cannot be stored. */
export function unstorableText(value: unknown): UnstorableIssue[] {
  const issues: UnstorableIssue[] = [];
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (pending.length > 0 && issues.length < 20) {
    const { value: item, path } = pending.pop()!;
    if (path.length > MAX_DEPTH) {
      issues.push({ code: "custom", path: path.slice(0, MAX_DEPTH), message: `nested deeper than ${MAX_DEPTH} levels` });
      break;
    }
    if (typeof item === "string") {
      if (!storable(item)) issues.push({ code: "custom", path, message: MESSAGE });
    } else if (Array.isArray(item)) {
      item.forEach((child, i) => {
        pending.push({ value: child, path: [...path, i] });
      });
    } else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (!storable(key)) issues.push({ code: "custom", path: [...path, key], message: MESSAGE });
        pending.push({ value: child, path: [...path, key] });
      }
    }
  }
  return issues;
}

// JSON or long text, monospace and collapsible; never rendered as HTML.
import Link from "next/link";
export function JsonBlock({ value, label, open = false }: { value: unknown; label: string; open?: boolean }) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <details open={open} className="rounded border border-neutral-200 dark:border-neutral-800">
      <summary className="cursor-pointer px-2 py-1 text-xs text-neutral-600 dark:text-neutral-300">{label}</summary>
      <pre className="max-h-80 overflow-auto border-t border-neutral-200 bg-neutral-50 p-2 font-mono text-xs whitespace-pre-wrap dark:border-neutral-800 dark:bg-neutral-950">
        {text}
      </pre>
    </details>
  );
}

/** A link to one event in the explorer (it opens at that event, expanded). */
export function EventLink({ id, children }: { id: number; children?: React.ReactNode }) {
  return (
    <Link href={`/journal?at=${id}`} className="font-mono text-xs text-accent-600 hover:underline dark:text-accent-500">
      {children ?? `#${id}`}
    </Link>
  );
}

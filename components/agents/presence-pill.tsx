// Present or away, as a dot and a word (colour is never the only signal).
export function PresencePill({ present, lastSeenAt }: { present: boolean; lastSeenAt: string | null }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-xs" title={lastSeenAt ? `last seen ${new Date(lastSeenAt).toLocaleString()}` : "never seen"}>
      <span className={`h-2 w-2 rounded-full ${present ? "bg-green-500" : "bg-neutral-300 dark:bg-neutral-700"}`} aria-hidden />
      {present ? "present" : "away"}
    </span>
  );
}

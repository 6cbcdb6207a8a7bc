// Initials in a colour derived from the principal's id, with a small mark for its kind.
const PALETTE = ["bg-rose-600", "bg-orange-600", "bg-amber-700", "bg-lime-700", "bg-emerald-700", "bg-teal-700", "bg-sky-700", "bg-indigo-600", "bg-violet-600", "bg-fuchsia-700"];

function colourOf(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

export function Avatar({ id, name, kind, size = "md" }: { id: string; name: string; kind: "human" | "agent" | "system"; size?: "sm" | "md" }) {
  const initials =
    name
      .replace(/[^A-Za-z0-9]/g, "")
      .slice(0, 2)
      .toUpperCase() || "?";
  const box = size === "sm" ? "h-6 w-6 text-[10px]" : "h-8 w-8 text-xs";
  return (
    <span className={`relative inline-flex shrink-0 items-center justify-center rounded-md font-semibold text-white ${box} ${colourOf(id)}`} aria-hidden>
      {initials}
      <span className="absolute -right-1 -bottom-1 rounded-full bg-white px-0.5 text-[9px] leading-none dark:bg-neutral-900" title={kind}>
        {kind === "human" ? "👤" : kind === "agent" ? "🤖" : "⚙"}
      </span>
    </span>
  );
}

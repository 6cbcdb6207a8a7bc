"use client";
// Initials in the principal's own colour (./principal-colour.ts, shared with the charts), with a small
// drawn mark for its kind: a person, a robot, or Quorum's gear.
import { usePrincipalColours } from "./principal-colour";

function KindMark({ kind }: { kind: "human" | "agent" | "system" }) {
  const paths = {
    human: <path d="M8 8a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm-4.5 5c0-2.2 2-3.8 4.5-3.8s4.5 1.6 4.5 3.8Z" />,
    agent: (
      <path d="M7.25 2h1.5v1.5H12a1.5 1.5 0 0 1 1.5 1.5v6A1.5 1.5 0 0 1 12 12.5H4A1.5 1.5 0 0 1 2.5 11V5A1.5 1.5 0 0 1 4 3.5h3.25Zm-1.5 5a1 1 0 1 0 0 2 1 1 0 0 0 0-2Zm4.5 0a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" />
    ),
    system: (
      <path d="M7 1.5h2l.4 1.7 1.5.6 1.5-.9 1.4 1.4-.9 1.5.6 1.5 1.7.4v2l-1.7.4-.6 1.5.9 1.5-1.4 1.4-1.5-.9-1.5.6L9 14.5H7l-.4-1.7-1.5-.6-1.5.9-1.4-1.4.9-1.5-.6-1.5L.8 9V7l1.7-.4.6-1.5-.9-1.5 1.4-1.4 1.5.9 1.5-.6Zm1 4.5a2 2 0 1 0 0 4 2 2 0 0 0 0-4Z" />
    ),
  };
  return (
    <svg viewBox="0 0 16 16" className="h-2.5 w-2.5 fill-neutral-800 dark:fill-neutral-100" aria-hidden="true">
      {paths[kind]}
    </svg>
  );
}

export function Avatar({ id, name, kind, size = "md" }: { id: string; name: string; kind: "human" | "agent" | "system"; size?: "sm" | "md" }) {
  const colourOf = usePrincipalColours();
  const initials =
    name
      .replace(/[^A-Za-z0-9]/g, "")
      .slice(0, 2)
      .toUpperCase() || "?";
  const colour = colourOf(id);
  const box = size === "sm" ? "h-6 w-6 text-[10px]" : "h-8 w-8 text-xs";
  return (
    <span
      className={`relative inline-flex shrink-0 items-center justify-center rounded-md font-semibold text-white ${box} ${colour.avatar}`}
      data-colour={colour.avatar}
      aria-hidden
    >
      {initials}
      <span className="absolute -right-1 -bottom-1 rounded-full bg-white p-px dark:bg-neutral-900" title={kind} data-kind={kind}>
        <KindMark kind={kind} />
      </span>
    </span>
  );
}

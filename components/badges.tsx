// Performative badges: a word and a colour, the same everywhere.
const PERFORMATIVE_STYLE: Record<string, string> = {
  REQUEST: "bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100",
  INFORM: "bg-neutral-200 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200",
  PROPOSE: "bg-violet-100 text-violet-900 dark:bg-violet-900/50 dark:text-violet-100",
  ACCEPT: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
  REJECT: "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
  DONE: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100",
  ERROR: "bg-red-200 text-red-950 dark:bg-red-950 dark:text-red-100",
};

/** What each performative says, as a person would: the message's kind in a word, its code name on hover. */
const PERFORMATIVE_WORDS: Record<string, string> = {
  REQUEST: "asks",
  INFORM: "says",
  PROPOSE: "proposes",
  ACCEPT: "agrees",
  REJECT: "objects",
  DONE: "done",
  ERROR: "problem",
};

export function PerformativeBadge({ performative }: { performative: string }) {
  return (
    <span
      title={`${performative}: the message's performative`}
      className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${PERFORMATIVE_STYLE[performative] ?? PERFORMATIVE_STYLE.INFORM}`}
    >
      {PERFORMATIVE_WORDS[performative] ?? performative.toLowerCase()}
    </span>
  );
}

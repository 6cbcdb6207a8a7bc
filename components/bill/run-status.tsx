// A run's status as a word with a colour: running blue, done green, halted red, stopped grey, the rest amber.
const STYLE: Record<string, string> = {
  running: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300",
  done: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300",
  halted: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  stopped: "bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300",
  inconclusive: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  out_of_turns: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
};

export function RunStatus({ status }: { status: string }) {
  return <span className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${STYLE[status] ?? STYLE.stopped}`}>{status.replace(/_/g, " ")}</span>;
}

// How a view of the journal says it reaches an archived month (DESIGN §4): which archived months lie where
// its events stop, and the sentence that says so with the command that brings them back.
import type { JournalArchive } from "./types";

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const month = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/**
 * The archived months between two events a newest-first list shows next to each other: wholly after `older`
 * and wholly up to `newer`. A null `older` means nothing older is shown (the list's end); a null `newer`,
 * nothing newer (an empty list).
 */
export function archivedBetween(archives: readonly JournalArchive[], newer: string | null, older: string | null): JournalArchive[] {
  return archives.filter((a) => (newer === null || Date.parse(a.to) <= Date.parse(newer)) && (older === null || Date.parse(a.from) > Date.parse(older)));
}

/** "October 2026", or "September–October 2026" / "December 2025 – January 2026" for several. */
export function monthsWords(archives: readonly JournalArchive[]): string {
  const first = month.format(new Date(archives[0].from));
  const last = month.format(new Date(archives[archives.length - 1].from));
  if (first === last) return first;
  const [firstName, firstYear] = first.split(" ");
  return firstYear === last.split(" ")[1] ? `${firstName}–${last}` : `${first} – ${last}`;
}

/** Where the line stands: at the end of a list, between two of its events, or over a run's or task's whole view. */
export type ArchivedPlace = "end" | "gap" | "run" | "task";

/** The sentence, without the command. */
export function archivedSentence(archives: readonly JournalArchive[], place: ArchivedPlace): string {
  const sorted = [...archives].sort((a, b) => a.month.localeCompare(b.month));
  if (place === "end") return `Events before ${day.format(new Date(sorted[sorted.length - 1].to))} are archived`;
  if (place === "gap") return `Events of ${monthsWords(sorted)} are archived`;
  return `This ${place === "run" ? "run's events are" : "task's history is"} archived with ${monthsWords(sorted)}`;
}

/** The command that brings the newest of them back (humans see the file; agents, only that one exists). */
export function restoreCommand(archives: readonly JournalArchive[]): { command: string; more: number } {
  const sorted = [...archives].sort((a, b) => a.month.localeCompare(b.month));
  const newest = sorted[sorted.length - 1];
  return { command: `quorum journal restore ${newest.file ?? `events-${newest.month.slice(0, 7)}.jsonl.gz`}`, more: sorted.length - 1 };
}

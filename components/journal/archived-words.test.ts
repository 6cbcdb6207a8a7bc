// Where a view of the journal says it reaches an archived month, and in which words.
import { describe, expect, it } from "vitest";
import { archivedBetween, archivedSentence, monthsWords, restoreCommand } from "./archived-words";
import type { JournalArchive } from "./types";

const archive = (month: string, next: string, file: string | null = `/home/ada/.quorum/archive/events-${month.slice(0, 7)}.jsonl.gz`): JournalArchive => ({
  month,
  from: `${month}T00:00:00.000Z`,
  to: `${next}T00:00:00.000Z`,
  events: 10,
  archivedAt: "2026-12-02T10:00:00.000Z",
  file,
  sha256: "0".repeat(64),
});
const sep = archive("2026-09-01", "2026-10-01");
const oct = archive("2026-10-01", "2026-11-01");
const dec = archive("2025-12-01", "2026-01-01");
const jan = archive("2026-01-01", "2026-02-01");

describe("archived history in the journal's views", () => {
  it("finds the months between two shown events, and those before the oldest one shown", () => {
    // Newest first: an event of 3 Nov above one of 20 Aug: September and October lie between them.
    expect(archivedBetween([sep, oct], "2026-11-03T10:00:00Z", "2026-08-20T10:00:00Z")).toEqual([sep, oct]);
    // Two events of November: nothing archived lies between.
    expect(archivedBetween([sep, oct], "2026-11-03T10:00:00Z", "2026-11-01T00:00:00Z")).toEqual([]);
    // The list's end: every month before its oldest event; an empty list: all of them.
    expect(archivedBetween([sep, oct], "2026-10-15T00:00:00Z", null)).toEqual([sep]);
    expect(archivedBetween([sep, oct], null, null)).toEqual([sep, oct]);
  });

  it("says it in words, with the command that brings the newest month back", () => {
    expect(archivedSentence([oct, sep], "end")).toBe("Events before 1 Nov 2026 are archived");
    expect(archivedSentence([sep, oct], "gap")).toBe("Events of September–October 2026 are archived");
    expect(archivedSentence([dec, jan], "gap")).toBe("Events of December 2025 – January 2026 are archived");
    expect(archivedSentence([oct], "run")).toBe("This run's events are archived with October 2026");
    expect(archivedSentence([oct], "task")).toBe("This task's history is archived with October 2026");
    expect(monthsWords([oct])).toBe("October 2026");
    expect(restoreCommand([oct, sep])).toEqual({ command: "quorum journal restore /home/ada/.quorum/archive/events-2026-10.jsonl.gz", more: 1 });
    // An agent is not told where the file lies on the hub's machine.
    expect(restoreCommand([archive("2026-10-01", "2026-11-01", null)]).command).toBe("quorum journal restore events-2026-10.jsonl.gz");
  });
});

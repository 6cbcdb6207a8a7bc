// `quorum journal archive --before DATE [--out DIR] | restore FILE | verify FILE`: retention (DESIGN §4).
// Archive and restore detach and attach the journal's partitions, so they connect as the schema's owner;
// verify reads a file only.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Db } from "../db/client";
import { systemClock, type Clock } from "../domain/clock";
import { quorumHomePath, typedIn } from "../domain/config";
import { QuorumError, sqlStateOf } from "../domain/errors";
import { archiveJournal } from "../domain/retention/archive";
import { verifyArchiveFile } from "../domain/retention/archive-file";
import { restoreJournal } from "../domain/retention/restore";
import { withConnection } from "./database";

export const JOURNAL_USAGE = `  quorum journal archive --before DATE [--out DIR]
                                        write every month of the journal wholly before DATE (YYYY-MM-DD, UTC) to a verified
                                        JSONL.gz file (default folder: $QUORUM_HOME/archive) and drop it from the database
  quorum journal restore FILE           bring an archived month back into the journal (its checksum verified first)
  quorum journal verify FILE            check an archive file against its .sha256 and its header`;

/** A date as typed (`2026-11-01`, `2026-11`, or any ISO instant), read in UTC. */
export function parseBefore(text: string | undefined): Date | null {
  if (!text) return null;
  const day = /^\d{4}-\d{2}$/.test(text) ? `${text}-01` : text;
  const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00Z` : day);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Runs one journal command against `db` (the owner's connection); returns the exit code. */
export async function journalCommand(db: Db, argv: string[], options: { clock?: Clock; home?: string; print?: (line: string) => void } = {}): Promise<number> {
  const print = options.print ?? console.log;
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { before: { type: "string" }, out: { type: "string" } } });
  const [sub, file] = positionals;
  try {
    if (sub === "archive") {
      const before = parseBefore(values.before);
      if (!before) {
        print(`quorum: say which months with --before DATE (YYYY-MM-DD)\n${JOURNAL_USAGE}`);
        return 1;
      }
      const out = values.out ? resolve(typedIn(), values.out) : join(options.home ?? quorumHomePath(), "archive");
      const months = await archiveJournal(db, { before, out, clock: options.clock ?? systemClock, progress: print });
      if (months.length === 0) print(`Nothing to archive before ${before.toISOString().slice(0, 10)}.`);
      for (const m of months) print(`${m.month.slice(0, 7)}: ${m.events} events → ${m.file} (sha256 ${m.sha256})`);
      return 0;
    }
    if (sub === "restore" && file) {
      const restored = await restoreJournal(db, resolve(typedIn(), file), options.clock ?? systemClock, print);
      print(`${restored.month.slice(0, 7)} is back in the journal: ${restored.events} events.`);
      return 0;
    }
  } catch (error) {
    if (sqlStateOf(error) === "42501") {
      print("quorum: archiving and restoring detach and attach the journal's partitions, which only the role that owns its tables may do: run it with that role's DATABASE_URL");
      return 1;
    }
    if (!(error instanceof QuorumError)) throw error;
    print(`quorum: ${error.message}`);
    return 1;
  }
  print(`usage:\n${JOURNAL_USAGE}`);
  return 1;
}

/** `quorum journal verify FILE`: no database needed. */
export async function verifyCommand(file: string | undefined, print: (line: string) => void = console.log): Promise<number> {
  if (!file) {
    print(`usage:\n${JOURNAL_USAGE}`);
    return 1;
  }
  try {
    const v = await verifyArchiveFile(resolve(typedIn(), file));
    print(`${v.file}: ok — ${v.month.slice(0, 7)}, ${v.events} events (ids ${v.firstId ?? "–"}…${v.lastId ?? "–"}), sha256 ${v.sha256}`);
    return 0;
  } catch (error) {
    if (!(error instanceof QuorumError)) throw error;
    print(`quorum: ${error.message}`);
    return 1;
  }
}

/** The CLI's entry: verify reads a file; archive and restore open the database as its owner. */
export function journalMain(argv: string[]): Promise<number> {
  if (argv[0] === "verify") return verifyCommand(argv[1]);
  return withConnection(({ db }) => journalCommand(db, argv), { asOwner: true });
}

// What a task changed, as a reviewer reads a pull request: files with +/− counts and unified hunks, read
// from git on this machine (the flight's clone). A coder's task in review: its branch against the flight's
// branch (`quorum/flight-<n>...task/<id>`); once integrated: its merge commit against the branch before it.
// A flight's goal: its branch against the commit the flight started from, what merging the branch brings
// (a flight that worked in place, on main: the combined diff of its merges).
import { existsSync } from "node:fs";
import { and, asc, eq, sql } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import { cloneAt, gitAsync, gitSpawn } from "../host-git";
import { payloadOf } from "../journal/payloads";
import { readTaskView } from "../tasks/view";
import { branchOf } from "./branch";
import { flightOfTask } from "./place";

/** The unified text read of one diff: past it, the files that did not fit are listed without hunks. */
const MAX_DIFF_BYTES = 512 * 1024;
/** One file's hunks past this are not shown (the file is listed with its counts). */
const MAX_FILE_BYTES = 128 * 1024;
/** git's file lists are small next to the text; this bounds a repository of a million renamed paths. */
const MAX_LIST_BYTES = 32 * 1024 * 1024;

export interface DiffLine {
  kind: "add" | "del" | "context";
  text: string;
}
export interface DiffHunk {
  header: string;
  lines: DiffLine[];
}
export interface DiffFile {
  path: string;
  /** The old path of a rename, else null. */
  from: string | null;
  status: "added" | "deleted" | "modified" | "renamed";
  additions: number;
  deletions: number;
  binary: boolean;
  /** False when the file's change is too large to show here (or past the diff's cap): the branch holds it. */
  shown: boolean;
  hunks: DiffHunk[];
}
/** One commit that reached a flight's branch: the goal's review lists each, so none arrives unseen. */
export interface DiffCommit {
  sha: string;
  subject: string;
  author: string;
}
export interface TaskDiff {
  /** What the diff compares, in words ("#12's branch against main"), or why there is none. */
  source: string;
  available: boolean;
  files: DiffFile[];
  additions: number;
  deletions: number;
  truncated: boolean;
  /** The goal's review: every commit on the flight's branch since it started, oldest first (else empty). */
  commits: DiffCommit[];
}

/** The goal lists at most this many commits (a flight of a few tasks makes two or three each). */
const MAX_COMMITS = 500;

/** The commits in `range` (`base..branch`), oldest first, from git's own fields (unit-separated, never parsed from prose). */
async function commitsIn(repo: string, range: string): Promise<DiffCommit[]> {
  const stdout = await gitAsync(cloneAt(repo), ["log", "--reverse", `--max-count=${MAX_COMMITS}`, "--format=%H%x1f%s%x1f%an%x1e", range], {
    maxBuffer: MAX_LIST_BYTES,
    timeout: 10_000,
  });
  return stdout
    .split("\x1e")
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [sha, subject, author] = record.split("\x1f");
      return { sha, subject, author };
    });
}

type ListedFile = Omit<DiffFile, "hunks" | "shown">;

const STATUS: Record<string, DiffFile["status"]> = { A: "added", D: "deleted", R: "renamed", C: "added" };

/**
 * The files a diff touches, from git's NUL-separated lists (`--name-status -z`, `--numstat -z`): a path is
 * never parsed out of a header, where `a/x b/y.txt` could be one file or two.
 */
export function listedFiles(nameStatus: string, numstat: string): ListedFile[] {
  const files: ListedFile[] = [];
  const names = nameStatus.split("\0");
  for (let i = 0; i + 1 < names.length && names[i] !== ""; ) {
    const letter = names[i][0];
    const twoPaths = letter === "R" || letter === "C";
    const file: ListedFile = twoPaths
      ? { path: names[i + 2], from: names[i + 1], status: STATUS[letter], additions: 0, deletions: 0, binary: false }
      : { path: names[i + 1], from: null, status: STATUS[letter] ?? "modified", additions: 0, deletions: 0, binary: false };
    files.push(file);
    i += twoPaths ? 3 : 2;
  }
  // numstat: "adds\tdels\tpath\0", or for a rename "adds\tdels\t\0old\0new\0"; "-" counts for a binary file.
  const counts = numstat.split("\0");
  for (let i = 0, n = 0; i < counts.length && counts[i] !== "" && n < files.length; n++) {
    const [adds, dels, path] = counts[i].split("\t");
    files[n].binary = adds === "-";
    files[n].additions = Number(adds) || 0;
    files[n].deletions = Number(dels) || 0;
    i += path === "" ? 3 : 1;
  }
  return files;
}

/** One file's section of `git diff` output: its hunks, and whether git called it binary. */
export function parseHunks(section: string): { hunks: DiffHunk[]; binary: boolean } {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | null = null;
  let binary = false;
  for (const line of section.split("\n")) {
    if (line.startsWith("@@")) {
      hunk = { header: line, lines: [] };
      hunks.push(hunk);
    } else if (hunk) {
      if (line.startsWith("+")) hunk.lines.push({ kind: "add", text: line.slice(1) });
      else if (line.startsWith("-")) hunk.lines.push({ kind: "del", text: line.slice(1) });
      else if (line.startsWith(" ")) hunk.lines.push({ kind: "context", text: line.slice(1) });
    } else if (line.startsWith("Binary files ")) binary = true;
  }
  return { hunks, binary };
}

/**
 * Streams `git diff` into one section per file (split at each `diff --git` line): a section past
 * MAX_FILE_BYTES is dropped (null) and reading goes on; once the kept sections pass MAX_DIFF_BYTES, git is
 * stopped and the rest is left out. A large diff is cut while it is read, never a buffer that throws.
 */
function readSections(repo: string, args: string[]): Promise<{ sections: (string | null)[]; cut: boolean } | null> {
  return new Promise((resolve) => {
    const child = gitSpawn(cloneAt(repo), args, { timeout: 10_000 });
    const sections: (string[] | null)[] = [];
    let sectionBytes = 0;
    let kept = 0;
    let cut = false;
    let partial = "";
    const take = (line: string) => {
      if (line.startsWith("diff --git ")) {
        sections.push([]);
        sectionBytes = 0;
      }
      const current = sections.at(-1);
      if (!current) return; // before the first file, or in a file too large to show
      const bytes = line.length + 1;
      sectionBytes += bytes;
      if (sectionBytes > MAX_FILE_BYTES) {
        kept -= sectionBytes - bytes;
        sections[sections.length - 1] = null;
        return;
      }
      current.push(line);
      kept += bytes;
      if (kept > MAX_DIFF_BYTES) {
        cut = true;
        sections.pop();
        child.kill();
      }
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (cut) return;
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (!cut) take(line);
    });
    child.on("error", () => resolve(null));
    child.on("close", (code) => {
      if (cut) return resolve({ sections: sections.map((lines) => lines?.join("\n") ?? null), cut });
      if (code !== 0) return resolve(null);
      if (partial) take(partial);
      resolve({ sections: sections.map((lines) => lines?.join("\n") ?? null), cut });
    });
  });
}

/** A diff of `repo` over `range` (git's revision arguments), as files with their hunks; null when git cannot read it. */
export async function readGitDiff(repo: string, range: string[]): Promise<{ files: DiffFile[]; truncated: boolean } | null> {
  const base = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M"];
  try {
    const [nameStatus, numstat] = await Promise.all([
      gitAsync(cloneAt(repo), [...base, "-z", "--name-status", ...range], { maxBuffer: MAX_LIST_BYTES, timeout: 10_000 }),
      gitAsync(cloneAt(repo), [...base, "-z", "--numstat", ...range], { maxBuffer: MAX_LIST_BYTES, timeout: 10_000 }),
    ]);
    const listed = listedFiles(nameStatus, numstat);
    const unified = await readSections(repo, [...base, ...range]);
    if (!unified) return null;
    // git writes the files in the same order for each of the three forms of one diff.
    const files = listed.map((file, i): DiffFile => {
      const section = unified.sections[i];
      if (section === undefined || section === null) return { ...file, shown: false, hunks: [] };
      const { hunks, binary } = parseHunks(section);
      return { ...file, binary: file.binary || binary, shown: true, hunks };
    });
    return { files, truncated: files.some((f) => !f.shown) };
  } catch {
    return null;
  }
}

async function branchExists(repo: string, branch: string): Promise<boolean> {
  try {
    await gitAsync(cloneAt(repo), ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

function none(source: string): TaskDiff {
  return { source, available: false, files: [], additions: 0, deletions: 0, truncated: false, commits: [] };
}

function diffOf(source: string, out: { files: DiffFile[]; truncated: boolean }, commits: DiffCommit[] = []): TaskDiff {
  const { files } = out;
  return {
    commits,
    source,
    available: true,
    files,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    truncated: out.truncated,
  };
}

/** The commits a flight's integrations made, oldest first. */
async function integrationCommits(db: Executor, where: ReturnType<typeof and>): Promise<string[]> {
  const rows = await db.select({ kind: events.kind, data: events.data }).from(events).where(where).orderBy(asc(events.id));
  return rows.map((row) => payloadOf(row, "TaskIntegrated").commit).filter((c) => /^[0-9a-f]{7,64}$/.test(c));
}

export async function readTaskDiff(db: Db, taskId: string): Promise<TaskDiff> {
  const { number } = await readTaskView(db, taskId);
  const found = await flightOfTask(db, taskId);
  if (!found) return none("This task is not part of a flight: there is no branch to compare. Its evidence is what its owner submitted.");
  const { place, isGoal } = found;
  if (!existsSync(place.repo)) return none("The flight's repository is not on this machine, so its diff cannot be read here.");
  if (isGoal) {
    if (place.baseCommit) {
      // Everything on the flight's branch since the commit it started from: what merging the branch brings.
      if (!(await branchExists(place.repo, place.branch))) return none(`Nothing of this flight has been integrated into ${place.branch} yet.`);
      const out = await readGitDiff(place.repo, [`${place.baseCommit}...${place.branch}`]);
      const commits = out ? await commitsIn(place.repo, `${place.baseCommit}..${place.branch}`).catch(() => []) : [];
      return out
        ? diffOf(`${place.branch} against the commit the flight started from (${place.baseCommit.slice(0, 7)})`, out, commits)
        : none("git could not read this flight's branch.");
    }
    const commits = await integrationCommits(db, and(eq(events.kind, "TaskIntegrated"), sql`${events.data}->>'flightId' = ${place.flightId}`));
    if (commits.length === 0) return none("Nothing of this flight has been integrated into main yet.");
    const out = await readGitDiff(place.repo, [`${commits[0]}^1`, commits[commits.length - 1]]);
    return out
      ? diffOf(`everything the flight integrated into main (${commits.length} ${commits.length === 1 ? "merge" : "merges"})`, out)
      : none("git could not read this flight's merges.");
  }
  const merged = await integrationCommits(db, and(eq(events.kind, "TaskIntegrated"), eq(events.taskId, taskId)));
  if (merged.length > 0) {
    const commit = merged[merged.length - 1];
    const out = await readGitDiff(place.repo, [`${commit}^1`, commit]);
    return out ? diffOf(`#${number} as merged into ${place.branch}`, out) : none("git could not read this task's merge.");
  }
  const branch = branchOf(taskId);
  if (!(await branchExists(place.repo, branch))) return none("No work yet: the task's branch does not exist until its owner starts.");
  const out = await readGitDiff(place.repo, [`${place.branch}...${branch}`]);
  return out ? diffOf(`#${number}'s branch against ${place.branch}`, out) : none(`git could not compare this task's branch with ${place.branch}.`);
}

// What a task changed, as a reviewer reads a pull request: files with +/− counts and unified hunks, read
// from git on this machine (the flight's clone). A coder's task in review: its branch against the flight's
// branch (`quorum/flight-<n>...task/<id>`); once integrated: its merge commit against the branch before it.
// A flight's goal: its branch against the commit the flight started from, what merging the branch brings
// (a flight that worked in place, on main: the combined diff of its merges).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { and, asc, eq, sql } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import { payloadOf } from "../journal/payloads";
import { readTaskView } from "../tasks/view";
import { branchOf } from "./branch";
import { flightOfTask } from "./place";

const run = promisify(execFile);

/** A diff larger than this is cut (the page says so); the evidence and the branch stay the truth. */
const MAX_DIFF_BYTES = 512 * 1024;

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
  hunks: DiffHunk[];
}
export interface TaskDiff {
  /** What the diff compares, in words ("#12's branch against main"), or why there is none. */
  source: string;
  available: boolean;
  files: DiffFile[];
  additions: number;
  deletions: number;
  truncated: boolean;
}

/** Parses `git diff` output (no colour, default prefixes) into files and hunks. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      const match = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
      file = { path: match?.[2] ?? line.slice(11), from: null, status: "modified", additions: 0, deletions: 0, binary: false, hunks: [] };
      hunk = null;
      files.push(file);
    } else if (!file) {
    } else if (line.startsWith("@@")) {
      hunk = { header: line, lines: [] };
      file.hunks.push(hunk);
    } else if (hunk) {
      if (line.startsWith("+")) {
        hunk.lines.push({ kind: "add", text: line.slice(1) });
        file.additions++;
      } else if (line.startsWith("-")) {
        hunk.lines.push({ kind: "del", text: line.slice(1) });
        file.deletions++;
      } else if (line.startsWith(" ")) hunk.lines.push({ kind: "context", text: line.slice(1) });
    } else if (line.startsWith("new file mode")) file.status = "added";
    else if (line.startsWith("deleted file mode")) file.status = "deleted";
    else if (line.startsWith("rename from ")) {
      file.status = "renamed";
      file.from = line.slice(12);
    } else if (line.startsWith("Binary files ")) file.binary = true;
  }
  return files;
}

async function gitDiff(repo: string, range: string[]): Promise<{ text: string; truncated: boolean } | null> {
  try {
    const { stdout } = await run("git", ["-C", repo, "diff", "--no-color", "--no-ext-diff", "-M", ...range], { maxBuffer: 8 * MAX_DIFF_BYTES, timeout: 10_000 });
    if (stdout.length <= MAX_DIFF_BYTES) return { text: stdout, truncated: false };
    // Cut at a file boundary, so no hunk is half shown.
    const cut = stdout.lastIndexOf("\ndiff --git ", MAX_DIFF_BYTES);
    return { text: stdout.slice(0, cut > 0 ? cut : MAX_DIFF_BYTES), truncated: true };
  } catch {
    return null;
  }
}

async function branchExists(repo: string, branch: string): Promise<boolean> {
  try {
    await run("git", ["-C", repo, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

function none(source: string): TaskDiff {
  return { source, available: false, files: [], additions: 0, deletions: 0, truncated: false };
}

function diffOf(source: string, out: { text: string; truncated: boolean }): TaskDiff {
  const files = parseUnifiedDiff(out.text);
  return {
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
      const out = await gitDiff(place.repo, [`${place.baseCommit}...${place.branch}`]);
      return out ? diffOf(`${place.branch} against the commit the flight started from (${place.baseCommit.slice(0, 7)})`, out) : none("git could not read this flight's branch.");
    }
    const commits = await integrationCommits(db, and(eq(events.kind, "TaskIntegrated"), sql`${events.data}->>'flightId' = ${place.flightId}`));
    if (commits.length === 0) return none("Nothing of this flight has been integrated into main yet.");
    const out = await gitDiff(place.repo, [`${commits[0]}^1`, commits[commits.length - 1]]);
    return out
      ? diffOf(`everything the flight integrated into main (${commits.length} ${commits.length === 1 ? "merge" : "merges"})`, out)
      : none("git could not read this flight's merges.");
  }
  const merged = await integrationCommits(db, and(eq(events.kind, "TaskIntegrated"), eq(events.taskId, taskId)));
  if (merged.length > 0) {
    const commit = merged[merged.length - 1];
    const out = await gitDiff(place.repo, [`${commit}^1`, commit]);
    return out ? diffOf(`#${number} as merged into ${place.branch}`, out) : none("git could not read this task's merge.");
  }
  const branch = branchOf(taskId);
  if (!(await branchExists(place.repo, branch))) return none("No work yet: the task's branch does not exist until its owner starts.");
  const out = await gitDiff(place.repo, [`${place.branch}...${branch}`]);
  return out ? diffOf(`#${number}'s branch against ${place.branch}`, out) : none(`git could not compare this task's branch with ${place.branch}.`);
}

// What a review shows of a task's change: the flight's git diff as files and hunks.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const diffRoute = apiHandler("GET", "/api/tasks/[id]/diff");
import { tasks } from "../../db/schema";
import { makeReadyTask } from "../../test/fixtures/board";
import { flightTaskIds, launchScratchFlight, startWorker, until } from "../../test/fixtures/team";
import { call, makeHuman } from "../../test/helpers";
import { readGitDiff, readTaskDiff } from "./task-diff";
import { apiHandler } from "../../test/api";

describe("a task's diff", () => {
  it("reads files from git's own lists, with paths no header can confuse, and hunks per file", async () => {
    const repo = mkdtempSync(join(tmpdir(), "quorum-diff-"));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    mkdirSync(join(repo, "x b"));
    writeFileSync(join(repo, "src.js"), "export function parse(s) {\n  return s.split(',');\n}\n");
    writeFileSync(join(repo, "old name.md"), "# notes\nline\n");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    writeFileSync(join(repo, "src.js"), "export function parse(s) {\n  if (s === '') return [];\n  return s.split(',');\n}\n");
    writeFileSync(join(repo, "x b", "y.txt"), "tricky\n");
    git("mv", "old name.md", "new name.md");
    writeFileSync(join(repo, "big.txt"), `${"x".repeat(100)}\n`.repeat(20_000));
    git("add", "-A");
    git("commit", "-q", "-m", "change");
    const diff = await readGitDiff(repo, ["HEAD^", "HEAD"]);
    expect(diff?.files.map((f) => [f.path, f.from, f.status, f.additions, f.deletions, f.shown])).toEqual([
      ["big.txt", null, "added", 20_000, 0, false],
      ["new name.md", "old name.md", "renamed", 0, 0, true],
      ["src.js", null, "modified", 1, 0, true],
      ["x b/y.txt", null, "added", 1, 0, true],
    ]);
    expect(diff?.truncated).toBe(true);
    expect(diff?.files[2].hunks[0].lines.map((l) => l.kind)).toEqual(["context", "add", "context", "context"]);
  });

  it("cuts a diff larger than its cap while reading, listing every file with its counts", async () => {
    const repo = mkdtempSync(join(tmpdir(), "quorum-diff-"));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("commit", "-q", "--allow-empty", "-m", "base");
    // 40 files of 60 KiB: each small enough to show, 2.4 MiB together (the diff's cap is 512 KiB).
    for (let i = 0; i < 40; i++) writeFileSync(join(repo, `f${String(i).padStart(2, "0")}.txt`), `${"y".repeat(59)}\n`.repeat(1_000));
    git("add", "-A");
    git("commit", "-q", "-m", "big");
    const diff = await readGitDiff(repo, ["HEAD^", "HEAD"]);
    expect(diff?.files).toHaveLength(40);
    expect(diff?.files.every((f) => f.additions === 1_000)).toBe(true);
    const shown = diff?.files.filter((f) => f.shown).length ?? 0;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(40);
    expect(diff?.truncated).toBe(true);
  });

  it("says why a task outside any flight has none", async () => {
    const human = await makeHuman();
    const task = await makeReadyTask(human);
    const res = await call(diffRoute, "/x", { cookie: human.cookie, params: { id: task.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ available: false, files: [] });
    expect(res.body.source).toMatch(/not part of a flight/);
    expect((await call(diffRoute, "/x", { cookie: human.cookie, params: { id: "not-a-task" } })).status).toBe(404);
  });

  it("shows a flight task's merge and the goal's combined change once the team has flown", async () => {
    const { db, flight, goalTask } = await launchScratchFlight();
    const worker = startWorker({ paceMs: 0 });
    try {
      await until("the goal waits for its human", async () => {
        const [goal] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, goalTask.id));
        return goal.status === "review";
      });
    } finally {
      await worker.stop();
    }
    const goal = await readTaskDiff(db, goalTask.id);
    expect(goal.available).toBe(true);
    expect(goal.source).toBe(`${flight.branch} against the commit the flight started from (${flight.baseCommit!.slice(0, 7)})`);
    expect(goal.files.length).toBeGreaterThan(0);
    expect(goal.additions).toBeGreaterThan(0);
    const [, coded] = await flightTaskIds(flight.id);
    const task = await readTaskDiff(db, coded);
    expect(task.source).toMatch(/as merged into quorum\/flight-\d+/);
    expect(task.files.map((f) => f.path)).toEqual(goal.files.map((f) => f.path));
    // The goal lists every commit that reached the branch, oldest first: the task's own, then its integration.
    const subjects = goal.commits.map((c) => c.subject);
    expect(subjects.at(-1)).toMatch(/^Integrate task #\d+/);
    expect(subjects.some((s) => /^Task #\d+: /.test(s))).toBe(true);
    expect(goal.commits.every((c) => /^[0-9a-f]{40}$/.test(c.sha) && c.author === "Quorum team")).toBe(true);
    expect(task.commits).toEqual([]);
  });
});

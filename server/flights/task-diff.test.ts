// What a review shows of a task's change: the flight's git diff as files and hunks.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as diffRoute } from "../../app/api/tasks/[id]/diff/route";
import { tasks } from "../../db/schema";
import { makeReadyTask } from "../../test/fixtures/board";
import { flightTaskIds, launchScratchFlight, startWorker, until } from "../../test/fixtures/team";
import { call, makeHuman } from "../../test/helpers";
import { parseUnifiedDiff, readTaskDiff } from "./task-diff";

const SAMPLE = [
  "diff --git a/src/parse.js b/src/parse.js",
  "index 1111111..2222222 100644",
  "--- a/src/parse.js",
  "+++ b/src/parse.js",
  "@@ -1,3 +1,4 @@",
  " export function parse(s) {",
  "-  return s.split(',');",
  "+  if (s === '') return [];",
  "+  return s.split(',');",
  " }",
  "diff --git a/notes.md b/notes.md",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/notes.md",
  "@@ -0,0 +1 @@",
  "+hello",
  "",
].join("\n");

describe("a task's diff", () => {
  it("parses files, statuses, +/− counts and hunks", () => {
    const files = parseUnifiedDiff(SAMPLE);
    expect(files.map((f) => [f.path, f.status, f.additions, f.deletions, f.hunks.length])).toEqual([
      ["src/parse.js", "modified", 2, 1, 1],
      ["notes.md", "added", 1, 0, 1],
    ]);
    expect(files[0].hunks[0].lines.map((l) => l.kind)).toEqual(["context", "del", "add", "add", "context"]);
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
  });
});
